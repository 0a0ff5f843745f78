"""The release artefacts: the sdist carries its own tests, the wheel built from it installs.

The build runs offline (``--no-isolation``: build and setuptools come with the test extras)
on a copy of the checkout, so the working tree is never written to.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
NAME = f"unotable-{PROJECT['version']}"
DIST_INFO = f"{NAME}.dist-info"
HELP_FILES = sorted(p.name for p in (ROOT / "unotable/app/help").glob("*.md"))
# what a checkout has and a release must not carry
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "*cache*", ".hypothesis", "build", "dist", "*.egg-info", "*.pyc",
    "snapshot_report.html",
)  # fmt: skip


def _run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist, that sdist unpacked, and the wheel built from the unpacked sdist."""
    tmp = tmp_path_factory.mktemp("dists")
    source = tmp / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    out = tmp / "dist"
    build = (sys.executable, "-m", "build", "--no-isolation", "--outdir", out)
    sdist_log = _run(*build, "--sdist", source, cwd=tmp)
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    unpacked = tmp / "unpacked" / NAME
    wheel_log = _run(*build, "--wheel", unpacked, cwd=tmp)
    for log in (sdist_log, wheel_log):
        # setuptools announces deprecations (the old license table did) as warnings
        assert "Deprecat" not in log.stdout + log.stderr
    (wheel,) = out.glob("*.whl")
    return {"source": source, "sdist": sdist, "unpacked": unpacked, "wheel": wheel}


def test_the_wheel_holds_the_licence_the_help_files_and_py_typed(dists: dict[str, Path]) -> None:
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = set(wheel.namelist())
        meta = email.message_from_bytes(wheel.read(f"{DIST_INFO}/METADATA"))
    assert f"{DIST_INFO}/licenses/LICENSE" in names
    assert "unotable/py.typed" in names and "unotable/app/app.tcss" in names
    assert HELP_FILES and {f"unotable/app/help/{n}" for n in HELP_FILES} <= names
    assert not any(n.startswith("tests/") for n in names)
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the SPDX field says it
    requires = meta.get_all("Requires-Dist") or []
    assert any(r.startswith("rich>=14.2") for r in requires)
    assert any(r.startswith("textual-serve") and "<1.2" in r for r in requires)


def test_the_sdist_holds_its_tests_snapshots_and_docs(dists: dict[str, Path]) -> None:
    source, unpacked = dists["source"], dists["unpacked"]

    def names(folder: Path, pattern: str) -> list[str]:
        return sorted(str(p.relative_to(folder)) for p in folder.glob(pattern))

    for name in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "MANIFEST.in"):
        assert (unpacked / name).is_file(), name
    assert names(unpacked, "tests/*.py") == names(source, "tests/*.py")
    snapshots = names(source, "tests/__snapshots__/**/*.svg")
    assert len(snapshots) >= 20  # the snapshot tests compare against these
    assert names(unpacked, "tests/__snapshots__/**/*.svg") == snapshots
    assert names(unpacked, "docs/*") == names(source, "docs/*") != []
    assert (unpacked / "assets/table-uno.svg").is_file()  # the README's pictures
    assert not list(unpacked.rglob("__pycache__"))


def test_the_wheel_from_the_sdist_installs_and_runs(dists: dict[str, Path], tmp_path: Path) -> None:
    # a bare venv: --version needs only the standard library, so no dependency is fetched
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    _run(
        sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
        "--quiet", "--disable-pip-version-check", dists["wheel"],
        cwd=tmp_path,
    )  # fmt: skip
    version = _run(venv / "bin" / "unotable", "--version", cwd=tmp_path)
    assert version.stdout == f"unotable {PROJECT['version']}\n"
    where = _run(python, "-c", "import unotable; print(unotable.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv)  # not the checkout's
    # the help texts are read as screens/help.py reads them
    read = "from importlib.resources import files; import sys; " + "".join(
        f"sys.stdout.write(files('unotable.app').joinpath('help', {n!r}).read_text()[:1]);"
        for n in HELP_FILES
    )
    assert _run(python, "-c", read, cwd=tmp_path).stdout == "#" * len(HELP_FILES)
