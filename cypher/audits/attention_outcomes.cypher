// Question: How did the proposals of one task fare: selected or not, and the gate's outcome?
// Parameters:
//   $task_id  the task (a string)
// Expect: rows
MATCH (p:ProposalNode {task_id: $task_id})
RETURN p.selected AS selected, p.outcome AS outcome, count(*) AS n
