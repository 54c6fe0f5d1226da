// 384-dimension cosine vector index over specialist-output embeddings on ProposalNodes.
CREATE VECTOR INDEX proposal_node_embedding_vector IF NOT EXISTS FOR (n:ProposalNode) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
