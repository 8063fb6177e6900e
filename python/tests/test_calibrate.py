"""preduce.calibrate(): the command-line tool's measurement, written where asked."""
import json

import pytest

import preduce
from preduce._calibrate import _command_line_tool


def test_bad_arguments_are_refused_before_measuring():
    with pytest.raises(ValueError, match="max_log2"):
        preduce.calibrate(max_log2=3)
    with pytest.raises(ValueError, match="max_log2"):
        preduce.calibrate(max_log2=31)
    with pytest.raises(ValueError, match="threads"):
        preduce.calibrate(threads=-1)


@pytest.mark.skipif(_command_line_tool() is None, reason="no preduce command-line tool in this build")
def test_writes_the_calibration_file_it_is_given(tmp_path):
    path = tmp_path / "calibration.json"
    described = preduce.calibrate(max_log2=6, path=path, quiet=True)
    assert described.startswith("auto(")
    rules = json.loads(path.read_text())
    assert rules["format"] == "preduce-calibration/1"
    assert set(rules["measured"]["pageable"]["median_us"]) == set(preduce.backends())
