"""The soak's memory figure ("no growth beyond 10% after warm-up"): growth is
read peak to peak, the first fifth after warm-up against the last, so a working set that swings
with the batches in flight is not growth, and a rise of the peaks is."""

from __future__ import annotations

from benchmarks.soak.workload import Sample, SoakConfig, SoakResult


def _result(rss: list[float]) -> SoakResult:
    samples = [Sample(30.0 * (i + 1), {}, 0, {}, mb, None) for i, mb in enumerate(rss)]
    config = SoakConfig(duration_s=30.0 * len(rss), interval_s=30.0, warmup_s=60.0)
    warm = next(s.rss_mb for s in samples if s.t >= config.warmup_s)
    after = [s.rss_mb for s in samples if s.t > config.warmup_s]
    return SoakResult(
        config, "t0", samples, {}, {}, [], {}, 0, {}, [], warm, max(after) if after else 0.0
    )


def test_a_swinging_working_set_is_flat_even_when_warm_up_ends_in_a_trough() -> None:
    swing = [900.0, 1000.0] + [1000.0 if i % 3 == 0 else 1150.0 for i in range(40)]
    result = _result(swing)
    assert result.rss_single_sample_growth > 1.10  # the old figure called this growth
    assert result.rss_growth == 1.0 and result.rss_flat
    assert abs(result.rss_trend_mb_per_min) < 5


def test_rising_peaks_are_growth() -> None:
    rising = [900.0, 1000.0] + [1000.0 + 10.0 * i for i in range(40)]
    result = _result(rising)
    assert result.rss_growth > 1.10 and not result.rss_flat
    assert result.rss_trend_mb_per_min > 15
