// One boundary's own vector index: cosine over the embeddings of the nodes carrying the
// boundary's vector label ($label; write_embeddings.cypher labels every entry it embeds). The
// procedure takes the name and the label as parameters (CREATE VECTOR INDEX takes neither as a
// parameter in Neo4j 5), so no identifier is ever spliced into a statement. The index populates
// in the background; kg_context/record/vector_index.py reads its state before using it.
CALL db.index.vector.createNodeIndex($name, $label, 'embedding', $dimensions, 'cosine')
