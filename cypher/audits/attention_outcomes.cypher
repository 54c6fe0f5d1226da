// Analyst audit: how the proposals of one task fared: selected or not, and the gate's outcome.
MATCH (p:ProposalNode {task_id: $task_id})
RETURN p.selected AS selected, p.outcome AS outcome, count(*) AS n
