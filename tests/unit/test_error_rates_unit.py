"""The pure arithmetic of the error rates: ratios, nearest-rank percentiles and
detection distances; a rate with nothing to count is null, never 0."""

from __future__ import annotations

import json

import pytest

from kg_context.record.observability import (
    Detection,
    DetectionKind,
    Distances,
    ErrorRates,
    Ratio,
    nearest_rank,
)


def test_a_ratio_with_a_zero_denominator_is_null_not_zero() -> None:
    assert Ratio(0, 0).value is None
    assert Ratio(0, 0).as_dict() == {"numerator": 0, "denominator": 0, "value": None}
    assert Ratio(0, 0).render() == "0/0 (n/a)"
    assert Ratio(0, 4).value == 0.0
    assert Ratio(1, 3).render() == "1/3 (33.3%)"


def test_nearest_rank_returns_an_observed_value() -> None:
    assert nearest_rank([], 0.5) is None
    assert nearest_rank([7], 0.5) == 7
    assert nearest_rank([4, 3], 0.5) == 3  # rank ceil(0.5 * 2) = 1: the lower of the two
    assert nearest_rank([5, 1, 3], 0.5) == 3
    assert nearest_rank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9) == 9
    assert nearest_rank([2, 9, 4], 1.0) == 9
    with pytest.raises(ValueError, match="quantile"):
        nearest_rank([1], 0.0)


def test_distances_summarize_count_mean_p50_max() -> None:
    assert Distances.of([]) == Distances(count=0, mean=None, p50=None, max=None)
    assert Distances.of([]).render() == "none"
    assert Distances.of([4, 3, 4]) == Distances(count=3, mean=11 / 3, p50=4, max=4)
    assert Distances.of([4, 3]).render() == "n=2 mean 3.50 p50 3 max 4"


def test_error_rates_filter_detections_by_kind_and_serialize_nulls() -> None:
    def found(kind: DetectionKind, made: int, seen: int) -> Detection:
        return Detection(kind, f"e{made}", made, f"s{made}", seen, f"s{seen}")

    none = Ratio(0, 0)
    rates = ErrorRates(
        boundary_id="b",
        false_retirement=Ratio(1, 2),
        false_supersession=none,
        resurrection=none,
        at_risk_revalidated=none,
        at_risk_abandoned=none,
        at_risk_open=none,
        detections=(
            found(DetectionKind.INVALIDATION, 2, 6),
            found(DetectionKind.FALSE_RETIREMENT, 5, 6),
        ),
        resurrections=(),
        supersession_candidates=(),
    )
    assert rates.detection(DetectionKind.INVALIDATION) == Distances(1, 4.0, 4, 4)
    assert rates.detection() == Distances(2, 2.5, 1, 4)
    data = json.loads(json.dumps(rates.as_dict()))
    assert data["false_supersession"]["value"] is None
    assert data["false_retirement"]["value"] == 0.5
    assert data["detection"]["false_retirement"] == {"count": 1, "mean": 1.0, "p50": 1, "max": 1}
    assert [d["distance"] for d in data["detections"]] == [4, 1]
