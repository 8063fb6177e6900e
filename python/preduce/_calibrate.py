"""preduce.calibrate(): the measurement behind backend="auto", made by the command-line tool's
`preduce --calibrate` (one implementation for C++ and Python), then read by this process."""
import os
import shutil
import subprocess
from pathlib import Path

from . import _preduce


def _command_line_tool():
    """The preduce executable: $PREDUCE_CLI, the one built beside this package (a build tree),
    the one installed under the same prefix, else preduce on PATH; None if there is none."""
    candidates = [os.environ.get("PREDUCE_CLI")]
    try:
        from ._build import CLI  # written by CMake into the build tree's package
        candidates.append(CLI)
    except ImportError:
        pass
    here = Path(__file__).resolve().parent  # <prefix>/lib/pythonX.Y/site-packages/preduce
    candidates.append(str(here.parents[3] / "bin" / "preduce") if len(here.parents) > 3 else None)
    candidates.append(shutil.which("preduce"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def calibrate(*, max_log2=26, threads=0, path=None, quiet=False):
    """Measures every backend on this machine (the median call of sum and of argmin over
    float32, from 2^4 to 2^max_log2 elements, in pageable and, with a GPU, pinned memory),
    writes the rules backend="auto" follows to the calibration file (path, else
    $PREDUCE_CALIBRATION, else the per-user cache), and makes this process read its file
    again: the one $PREDUCE_CALIBRATION or the cache names, so a file written elsewhere with
    path= is used once PREDUCE_CALIBRATION names it. Returns describe("auto"). It runs `preduce --calibrate`, so it needs the command-line tool
    (CMake's PREDUCE_BUILD_TOOLS); quiet=True keeps its table off stdout. Takes about a
    minute at the default max_log2."""
    if not isinstance(max_log2, int) or not 4 <= max_log2 <= 30:
        raise ValueError(f"preduce.calibrate: max_log2={max_log2!r}; give an int from 4 to 30")
    if not isinstance(threads, int) or threads < 0:
        raise ValueError(f"preduce.calibrate: threads={threads!r}; give 0 (the backends' default) or more")
    tool = _command_line_tool()
    if tool is None:
        raise _preduce.Error("preduce.calibrate: the preduce command-line tool was not found (build it with CMake's "
                             "PREDUCE_BUILD_TOOLS=ON, put it on PATH or name it in $PREDUCE_CLI)")
    command = [tool, "--calibrate", "--calibrate-max", str(max_log2)]
    if threads:
        command += ["--threads", str(threads)]
    if path is not None:
        command += ["--calibration-file", os.fspath(path)]
    done = subprocess.run(command, stdout=subprocess.PIPE if quiet else None, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise _preduce.Error(f"preduce.calibrate: {' '.join(command)} failed: {done.stderr.strip()}")
    _preduce._reload_calibration()
    return _preduce.describe("auto")
