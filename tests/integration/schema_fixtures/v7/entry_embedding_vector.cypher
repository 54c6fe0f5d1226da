// Test fixture: a rule of schema version 7 that version 8 drops.
CREATE VECTOR INDEX entry_embedding_vector IF NOT EXISTS FOR (n:Entry) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
