// Fulltext over the text of every thought (attention ProposalNodes and bus proposals, both
// labelled Thought), with the boundary as one token (boundary_token, as entry_body_fulltext):
// history search of thoughts filters by boundary inside the index (`+boundary_token:<token>
// +(words)`), so its top k are exactly the boundary's top k.
CREATE FULLTEXT INDEX thought_text_fulltext IF NOT EXISTS
FOR (n:Thought) ON EACH [n.key, n.text, n.boundary_token]
