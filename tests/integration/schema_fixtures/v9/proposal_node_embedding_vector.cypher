// Test fixture: schema version 9's vector index over ProposalNode embeddings (version 10 drops it).
CREATE VECTOR INDEX proposal_node_embedding_vector IF NOT EXISTS FOR (n:ProposalNode) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
