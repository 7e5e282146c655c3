"""A real Ray cluster on this machine: a head node with no CPUs and two worker nodes with two CPUs each, started
with ``ray start`` as on any cluster. Tests here are marked ``ray`` and run only with RAGKIT_RAY_TESTS=1 (CI runs
them in a step of their own, with a time limit)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "generators"))  # ray_script uses the generator tests' script (kg_builder)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    address: str
    env: dict[str, str]
    trace: Path
    """Where the slow scripted judge of ray_script.py appends the node id of each call."""

    def node_with(self, resource: str) -> str:
        import ray

        return next(n["NodeID"] for n in ray.nodes() if n["Alive"] and resource in n["Resources"])

    def raylet_pid(self, resource: str) -> int:
        """The raylet of the worker node started with the custom resource ``resource``."""
        import psutil

        for proc in psutil.process_iter(["name", "cmdline"]):
            cmd = " ".join(proc.info["cmdline"] or [])
            if "raylet" in (proc.info["name"] or "") and resource in cmd:
                return int(proc.pid)
        raise LookupError(f"no raylet with resource {resource}")


def _ray(*args: str, env: dict[str, str]) -> None:
    ray = str(Path(sys.executable).with_name("ray"))
    done = subprocess.run([ray, *args, "--disable-usage-stats"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ray {' '.join(args)} failed: {done.stderr[-2000:]}")


def _stop(temp: Path) -> None:
    """Stop this cluster's nodes: the processes started with ``temp`` in their command line (not ``ray stop``,
    which would take any other Ray on the machine with it) and their children."""
    import psutil

    procs = [p for p in psutil.process_iter(["cmdline"]) if str(temp) in " ".join(p.info["cmdline"] or [])]
    for proc in list(procs):  # the raylets' agents and workers, whose titles do not show the temp dir
        with contextlib.suppress(psutil.Error):
            procs += [child for child in proc.children(recursive=True) if child not in procs]
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.terminate()
    _, alive = psutil.wait_procs(procs, timeout=20)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            proc.kill()


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    if importlib.util.find_spec("ray") is None:  # not importorskip: Ray must be imported after the auth settings
        pytest.skip("ray is not installed")
    if shutil.which("ray", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("the ray command is not installed beside this Python")
    temp = Path("/tmp") / f"rk-ray-{os.getpid()}"  # short: Ray's socket paths have a length limit
    port = _free_port()
    tests = HERE.parent
    # Token authentication, as a shared cluster should have it, with a token of this cluster's own: left unset,
    # Ray turns it on or off by whether ~/.ray/auth_token exists, and an earlier local ray.init() writes that file.
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(temp.with_suffix(".token"))}
    temp.with_suffix(".token").write_text(uuid.uuid4().hex)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(tests), str(tests / "generators"),
                                                  os.environ.get("PYTHONPATH", "")]),
           "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0", "RAGKIT_TEST_RAY_TRACE": str(temp.with_suffix(".trace")), **auth}
    saved = {key: os.environ.get(key) for key in auth}
    os.environ.update(auth)  # the driver (this process) joins with the same token; Ray reads it at import
    import ray

    try:
        _ray("start", "--head", f"--port={port}", "--num-cpus=0", "--include-dashboard=false",
             f"--temp-dir={temp}", env=env)
        address = f"127.0.0.1:{port}"
        _ray("start", f"--address={address}", "--num-cpus=2", '--resources={"first": 1}', env=env)
        _ray("start", f"--address={address}", "--num-cpus=2", '--resources={"victim": 1}', env=env)
        deadline = time.monotonic() + 60
        ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        while sum(n["Alive"] for n in ray.nodes()) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert sum(n["Alive"] for n in ray.nodes()) == 3, ray.nodes()
        yield Cluster(address=address, env=env, trace=temp.with_suffix(".trace"))
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop(temp)
        shutil.rmtree(temp, ignore_errors=True)
        temp.with_suffix(".trace").unlink(missing_ok=True)
        temp.with_suffix(".token").unlink(missing_ok=True)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
