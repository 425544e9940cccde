"""Progress of a scan over all its chunks, and Ctrl-C.

The library calls the progress callback from the calling thread about ten times a second.
While a scan runs in the main thread, SIGINT only sets a flag (a Python handler, which runs
when the callback does); the callback then returns non-zero, the library stops the scan as
soon as it can (api.h: model_solver_set_progress) and the scan raises KeyboardInterrupt.
An exception raised by the user's progress callback stops the scan the same way and is
raised again after it.
"""
import signal
import sys
import threading
import time

from . import _lib


def _clock(seconds):
    s = int(seconds + 0.5)
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


class Watch:
    """Context manager around a whole scan or run of `total` systems.

    progress: None (a text bar on standard error when it is a terminal and the scan lasts
    more than half a second), True (the bar in any case), False (nothing), or a callable
    progress(done, total) called with the systems done so far."""

    def __init__(self, label, total, progress):
        if not (progress is None or isinstance(progress, bool) or callable(progress)):
            raise TypeError("progress must be None, True, False or a callable(done, total)")
        self.label = label
        self.total = total
        self.user = progress if callable(progress) and not isinstance(progress, bool) else None
        self.bar = progress is True or (progress is None and sys.stderr is not None and sys.stderr.isatty())
        self.base = 0            # systems of the chunks already done
        self.start = time.monotonic()
        self.shown = False
        self.interrupted = False
        self.error = None
        self.previous = None
        self.callback = _lib.PROGRESS_FN(self._on_progress)   # kept alive with the Watch

    def __enter__(self):
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        return False

    def _on_sigint(self, signum, frame):
        self.interrupted = True

    def _on_progress(self, user, done, chunk_total):
        """The library's callback: 0 goes on, 1 stops the scan."""
        try:
            self.report(self.base + done)
        except BaseException as e:   # raised again by check(); never through the C frames
            self.error = e
            return 1
        return 1 if self.interrupted else 0

    def report(self, done):
        if self.user:
            self.user(done, self.total)
        if self.bar:
            self._draw(done)

    def _draw(self, done):
        elapsed = time.monotonic() - self.start
        if not self.shown and (elapsed < 0.5 or done >= self.total):
            return
        width = 24
        filled = int(width * done / self.total) if self.total else width
        left = ""
        if 0 < done < self.total:
            left = ", %s left" % _clock(elapsed * (self.total - done) / done)
        sys.stderr.write("\r%s [%s%s] %d / %d systems (%.0f%%)%s\033[K" % (
            self.label, "#" * filled, "." * (width - filled), done, self.total,
            100.0 * done / self.total if self.total else 100.0, left))
        sys.stderr.flush()
        self.shown = True

    def check(self):
        """After each chunk (and after a stopped one): raises what stopped the scan."""
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        if self.interrupted:
            raise KeyboardInterrupt

    def chunk_done(self, count):
        self.base += count
        self.check()
