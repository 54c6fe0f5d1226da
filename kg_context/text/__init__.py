"""The text room: the embedding model (``embeddings``) and token counts from its tokenizer
(``tokens``), loaded once per process and offline. Imports only the base modules."""
