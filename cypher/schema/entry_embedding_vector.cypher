// 384-dimension cosine vector index over entry embeddings (all-MiniLM-L6-v2).
CREATE VECTOR INDEX entry_embedding_vector IF NOT EXISTS FOR (n:Entry) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
