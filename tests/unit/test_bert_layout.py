"""Which model directories the engine's own BERT encoder runs (the model itself is tested in
tests/integration/test_embedding_model.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg_context.text.bert import bert_layout

TRANSFORMER = "sentence_transformers.models.Transformer"
POOLING = "sentence_transformers.models.Pooling"
NORMALIZE = "sentence_transformers.models.Normalize"


def _model_dir(
    root: Path,
    modules: list[str],
    pooling: dict[str, bool] | None = None,
    config: dict[str, object] | None = None,
) -> Path:
    paths = {TRANSFORMER: "", POOLING: "1_Pooling", NORMALIZE: "2_Normalize"}
    (root / "modules.json").write_text(
        json.dumps(
            [{"idx": i, "type": t, "path": paths.get(t, "x")} for i, t in enumerate(modules)]
        )
    )
    (root / "1_Pooling").mkdir()
    mean = {"pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False}
    (root / "1_Pooling" / "config.json").write_text(json.dumps(pooling or mean))
    bert = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}
    (root / "config.json").write_text(json.dumps({**bert, **(config or {})}))
    (root / "sentence_bert_config.json").write_text('{"max_seq_length": 128}')
    (root / "tokenizer.json").write_text("{}")
    (root / "model.safetensors").write_bytes(b"")
    return root


@pytest.mark.parametrize("modules", [[TRANSFORMER, POOLING], [TRANSFORMER, POOLING, NORMALIZE]])
def test_a_bert_with_mean_pooling_runs_in_the_engines_encoder(
    tmp_path: Path, modules: list[str]
) -> None:
    layout = bert_layout(_model_dir(tmp_path, modules))
    assert layout is not None
    assert (layout.transformer_dir, layout.max_seq_length) == (tmp_path, 128)


@pytest.mark.parametrize(
    ("modules", "pooling", "config"),
    [
        ([TRANSFORMER, POOLING, "sentence_transformers.models.Dense", NORMALIZE], None, None),
        ([TRANSFORMER, POOLING], {"pooling_mode_cls_token": True}, None),
        (
            [TRANSFORMER, POOLING],
            {"pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": True},
            None,
        ),
        ([TRANSFORMER, POOLING], None, {"model_type": "mpnet"}),
        ([TRANSFORMER, POOLING], None, {"hidden_act": "gelu_new"}),
        ([TRANSFORMER, POOLING], None, {"position_embedding_type": "relative_key"}),
    ],
    ids=["dense-layer", "cls-pooling", "max-pooling-too", "not-bert", "tanh-gelu", "relative"],
)
def test_any_other_shape_is_left_to_sentence_transformers(
    tmp_path: Path,
    modules: list[str],
    pooling: dict[str, bool] | None,
    config: dict[str, object] | None,
) -> None:
    assert bert_layout(_model_dir(tmp_path, modules, pooling, config)) is None


def test_a_directory_without_modules_is_not_a_sentence_transformers_bert(tmp_path: Path) -> None:
    assert bert_layout(tmp_path) is None
