"""Labels to trust: how far a judge-scored metric agrees with the user's own labels, and prediction-powered
means for runs scored by that judge."""

from __future__ import annotations

from ragkit.calibration._agreement import best_threshold, cohen_kappa, roc_auc, spearman
from ragkit.calibration._labels import Labelled, label_kind, read_labels
from ragkit.calibration._ppi import PPIEstimate, ppi_mean
from ragkit.calibration._store import (
    Calibration,
    MetricCalibration,
    calibrate_metric,
    calibration_path,
    load_calibration,
    save_calibration,
)

__all__ = [
    "Calibration",
    "Labelled",
    "MetricCalibration",
    "PPIEstimate",
    "best_threshold",
    "calibrate_metric",
    "calibration_path",
    "cohen_kappa",
    "label_kind",
    "load_calibration",
    "ppi_mean",
    "read_labels",
    "roc_auc",
    "save_calibration",
    "spearman",
]
