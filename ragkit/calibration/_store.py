"""A calibration: how each metric, scored by one judge, agreed with the user's labels; saved per judge so that
later runs by the same judge show it in their report, with prediction-powered means."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from ragkit.calibration._agreement import best_threshold, roc_auc, spearman
from ragkit.calibration._labels import Kind
from ragkit.calibration._ppi import PPIEstimate, ppi_mean
from ragkit.errors import DataError
from ragkit.runs import write_json_atomic
from ragkit.settings import Settings

FORMAT_VERSION = 1


class MetricCalibration(BaseModel):
    """One metric against the labels given for it."""

    kind: Kind
    n: int
    """Labelled samples the metric could score."""
    auc: float | None = None
    """ROC-AUC (ordinal labels: split at 3, "3 or better" is good)."""
    kappa: float | None = None
    threshold: float | None = None
    """The score cut that agrees best with the labels (Cohen's kappa above)."""
    spearman: float | None = None
    """Rank correlation with ordinal labels."""
    pairs: list[tuple[float, float]] = Field(default_factory=list)
    """(score, label on a 0–1 scale) per labelled sample: what prediction-powered means are computed from."""

    def ppi(self, run_scores: list[float]) -> PPIEstimate | None:
        """The prediction-powered mean of the labels' quantity over a run's scores."""
        return ppi_mean(run_scores, [s for s, _ in self.pairs], [y for _, y in self.pairs])


class Calibration(BaseModel):
    format_version: int = FORMAT_VERSION
    judge: str
    labels_file: str
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    metrics: dict[str, MetricCalibration]


def calibrate_metric(kind: Kind, scores: list[float], labels: list[float]) -> MetricCalibration:
    """Agreement of one metric's ``scores`` with its ``labels`` (the samples it scored, in the same order)."""
    scaled = labels if kind == "binary" else [(y - 1) / 4 for y in labels]
    good = [y >= (1 if kind == "binary" else 3) for y in labels]
    out = MetricCalibration(kind=kind, n=len(scores), auc=roc_auc(scores, good),
                            pairs=list(zip(scores, scaled, strict=True)))
    if len(set(good)) == 2:
        out.threshold, out.kappa = best_threshold(scores, good)
    if kind == "ordinal":
        out.spearman = spearman(scores, labels)
    return out


def calibration_path(judge: str, settings: Settings | None = None) -> Path:
    """Where the calibration of ``judge`` is kept (one file per judge model, in the cache directory)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", judge).strip("_") or "judge"
    return (settings or Settings.load()).cache_dir / "calibration" / f"{slug}.json"


def save_calibration(calibration: Calibration, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, calibration.model_dump(mode="json"))


def load_calibration(judge: str, settings: Settings | None = None) -> Calibration | None:
    """The saved calibration of ``judge``, or None; a file that does not read is an error naming it."""
    path = calibration_path(judge, settings)
    if not path.is_file():
        return None
    try:
        found = Calibration.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError, UnicodeDecodeError) as exc:
        raise DataError(str(path), f"not a ragkit calibration ({str(exc).splitlines()[0]}); "
                                   "run `ragkit calibrate` again or delete it") from None
    return found if found.judge == judge else None
