"""Where parallel work runs: local worker processes, or a Ray cluster given its address.

The arena's duplicate deals and the training scripts' self-play hands are cut into
independent tasks whose results depend only on their inputs (every seed is derived from
the task), so they may run anywhere and be merged afterwards in task order: the outcome is
the same on 1 local process, 2, or a cluster of any size.

    with open_executor(jobs=2) as ex:                       # 2 local processes
        results = ex.ordered(play_chunk, chunks)
    with open_executor(ray="10.0.0.5:6379") as ex:          # every CPU of a Ray cluster
        for index, result in ex.unordered(play_chunk, chunks): ...

Ray is optional (``pip install 'scopa[ray]'``) and imported only when an address is given.
Every node of the cluster needs the same ``scopa`` installed (the same commit); the task
function and its inputs travel by pickle (cloudpickle: a script's own functions and classes
travel by value, an installed package's by reference).
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import sysconfig
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import ModuleType, TracebackType
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: what to install for ``--ray``
RAY_INSTALL = "pip install 'scopa[ray]'"
#: seconds a Ray head may take to accept a connection (``ray.init`` alone keeps retrying
#: an address where nothing answers for minutes)
RAY_CONNECT_SECONDS = 5.0


class ExecutorError(RuntimeError):
    """The work cannot start where it was asked to: Ray is not installed, or no cluster
    answers at the address."""


class Executor(Protocol):
    """Runs a picklable function on many inputs, in parallel somewhere."""

    #: tasks run at once
    workers: int
    #: True when the workers are separate interpreters (a cluster), which do not see what
    #: this process set up at run time (bots registered by a script); False when they are
    #: forks of this process
    remote: bool
    #: a few words for a plan or a log line: "2 local processes", "Ray at host:port"
    where: str

    def unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        """``(index, fn(tasks[index]))`` as each task finishes; leaving the loop early (an
        exception in the caller included) cancels the tasks not yet started."""
        ...

    def ordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
        """``[fn(t) for t in tasks]``, in task order."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class _Base:
    """``ordered`` and the context manager, from ``unordered`` and ``close``."""

    def unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def ordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
        out: dict[int, R] = dict(self.unordered(fn, tasks))
        return [out[i] for i in range(len(tasks))]

    def __enter__(self) -> Any:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class LocalExecutor(_Base):
    """A pool of ``jobs`` worker processes on this machine (forks of this process)."""

    remote = False

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        if _ray_connected():
            # a fork of a process with Ray's threads running can hang (seen once in
            # bench/arena.py): better a clear error
            raise ExecutorError("local worker processes cannot be forked from a process "
                                "connected to Ray; disconnect (ray.shutdown()) first")
        self.workers = jobs
        self.where = f"{jobs} local process{'es' if jobs > 1 else ''}"
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    def unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        futures: dict[Future[R], int] = {self._pool.submit(fn, t): i for i, t in enumerate(tasks)}
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=futures.__getitem__):
                    yield futures[fut], fut.result()
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _ray_connected() -> bool:
    """Whether this process is connected to a Ray cluster (Ray imported and initialised)."""
    ray = sys.modules.get("ray")
    return ray is not None and bool(getattr(ray, "is_initialized", lambda: False)())


def import_ray() -> ModuleType:
    """The ``ray`` module, or an ExecutorError saying how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ExecutorError(
            f"--ray needs Ray, an optional dependency that is not installed: {RAY_INSTALL}"
        ) from e
    return ray


def head_of(address: str) -> tuple[str, int] | None:
    """The host and port a Ray address names (``host:port`` or ``ray://host:port``);
    None for ``auto``, ``local`` and the like, which name no machine to try."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def check_reachable(address: str, seconds: float = RAY_CONNECT_SECONDS) -> None:
    """Something accepts connections at the head's address within ``seconds``, else an
    ExecutorError now, rather than ``ray.init`` retrying for minutes."""
    head = head_of(address)
    if head is None:
        return
    try:
        with socket.create_connection(head, timeout=seconds):
            pass
    except TimeoutError:
        raise ExecutorError(f"no Ray cluster answers at {address}: no answer in "
                            f"{seconds:g} s") from None
    except OSError as e:
        raise ExecutorError(f"no Ray cluster answers at {address}: "
                            f"{e.strerror or e}") from None


class RayExecutor(_Base):
    """Tasks on a Ray cluster: ``ray.init(address=...)`` (``host:port`` of the head,
    ``auto`` for the cluster running on this machine, or ``ray://host:10001``), one CPU a
    task, at most ``jobs`` tasks at once (default: the cluster's CPUs when it connects).

    When this process is already connected (a notebook, a test that started a cluster with
    ``ray.init()``), that connection is used and left open."""

    remote = True

    def __init__(self, address: str, jobs: int | None = None) -> None:
        if jobs is not None and jobs < 1:
            raise ValueError("jobs must be at least 1")
        self._ray = ray = import_ray()
        self._owner = not ray.is_initialized()
        if self._owner:
            check_reachable(address)
            # log_to_driver=False: what a worker prints must not end up in our stdout
            # (``scopa arena --json`` writes the results there); its errors still come
            # back with their tracebacks as exceptions
            try:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            except ConnectionError as e:
                raise ExecutorError(
                    f"cannot connect to a Ray cluster at {address} ({e}); is it running, and "
                    "if it uses token authentication (Ray's default), are RAY_AUTH_MODE=token "
                    "and its token (~/.ray/auth_token or RAY_AUTH_TOKEN) set here?"
                ) from e
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if jobs is None and cpus < 1:
            self.close()
            raise ExecutorError(f"the Ray cluster at {address} has no CPU for tasks")
        self.workers = jobs or cpus
        self.where = f"Ray at {address} ({self.workers} at once)"
        self._remote_fns: dict[Callable[..., Any], Any] = {}

    def _remote(self, fn: Callable[[T], R]) -> Any:
        """``fn`` as a Ray task. A function from code that is not installed (a script, a
        test module) travels by value, with the classes beside it: the cluster need not
        have that code, only the packages it imports."""
        if fn not in self._remote_fns:
            module = sys.modules.get(fn.__module__)
            if module is not None and module.__name__ != "__main__" and _not_installed(module):
                from ray import cloudpickle

                cloudpickle.register_pickle_by_value(module)  # type: ignore[no-untyped-call]
            self._remote_fns[fn] = self._ray.remote(num_cpus=1)(fn)
        return self._remote_fns[fn]

    def unordered(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        ray, remote = self._ray, self._remote(fn)
        waiting = list(range(len(tasks)))[::-1]  # popped from the end: task 0 first
        running: dict[Any, int] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.workers:
                    i = waiting.pop()
                    running[remote.remote(tasks[i])] = i
                done, _ = ray.wait(list(running), num_returns=1)
                for ref in done:
                    i = running.pop(ref)
                    # a task's exception is raised here, as an instance of its own class
                    yield i, ray.get(ref)
        finally:
            for ref in running:
                ray.cancel(ref)

    def close(self) -> None:
        if self._owner and self._ray.is_initialized():
            self._ray.shutdown()


def _not_installed(module: ModuleType) -> bool:
    """Whether a module is a file outside the standard library, the installed packages
    and ``scopa`` itself (``__main__`` already travels by value)."""
    file = getattr(module, "__file__", None)
    if file is None:
        return False
    path = os.path.realpath(file)
    homes = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    homes.add(os.path.dirname(os.path.dirname(__file__)))  # the scopa package
    return not any(path.startswith(os.path.realpath(h) + os.sep) for h in homes)


def open_executor(jobs: int | None = None, ray: str | None = None) -> Executor:
    """A Ray executor when given a cluster's address, else ``jobs`` local processes
    (default 1)."""
    if ray:
        return RayExecutor(ray, jobs)
    return LocalExecutor(jobs or 1)
