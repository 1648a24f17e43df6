/**
 * Small files the sandbox is given next to the user's code. They are written once per server
 * process into the sandbox's prepared /etc (etc-dir.ts), a copy bound read-only into every run,
 * so nothing of the server's own tree is bound into the sandbox.
 */

/** Where the support files live inside the sandbox. */
export const SUPPORT_DIR = '/opt/sandbox';

/**
 * The sandbox's first process: sets the rlimits (dash's ulimit takes one resource per call, soft
 * before hard), runs the program with stdin closed and without the control channel (fd 3), then
 * reports the exit status and the figures in the working directory over fd 3.
 *
 * Arguments: cpuSoft cpuHard addressSpaceKiB processes fileBlocks(512 B) figureMaxBytes
 * figureMaxCount, then the command.
 *
 * Frames on fd 3: `EXIT <status>\n`, then per figure `FIGURE <bytes> <name>\n<bytes>` or
 * `SKIP <reason> <name>\n`. Names are restricted to [A-Za-z0-9._-] so a frame is one line.
 */
export const WRAPPER_SCRIPT = `
ulimit -c 0
ulimit -St "$1"; ulimit -Ht "$2"
ulimit -v "$3"
ulimit -p "$4"
ulimit -f "$5"
ulimit -n 256
fig_max_bytes=$6
fig_max_count=$7
shift 7
"$@" </dev/null 3>&-
status=$?
printf 'EXIT %d\\n' "$status" >&3
count=0
for f in *.png *.svg; do
  [ -f "$f" ] || continue
  case "$f" in *[!A-Za-z0-9._-]*) printf 'SKIP name figure\\n' >&3; continue ;; esac
  count=$((count + 1))
  if [ "$count" -gt "$fig_max_count" ]; then printf 'SKIP count %s\\n' "$f" >&3; continue; fi
  size=$(wc -c < "$f") || continue
  if [ "$size" -gt "$fig_max_bytes" ]; then printf 'SKIP size %s\\n' "$f" >&3; continue; fi
  printf 'FIGURE %d %s\\n' "$size" "$f" >&3
  head -c "$size" "$f" >&3
done
`;

/**
 * Python: plt.show() cannot display anything here, so figures a program leaves open are saved
 * at exit, as a notebook would show them. Only when the program saved no PNG or SVG itself, so
 * a figure it saved does not come back twice.
 *
 * Every Python run loads this file, so it does nothing until matplotlib.pyplot is first
 * imported: a finder first in sys.meta_path (it finds nothing itself) sees that import and only
 * then imports threading and warnings (whose regular-expression filter would pull in re, enum
 * and functools). Done at start-up, those imports took about a third of the CPU time of a
 * sandboxed `print` (bench/sandbox/overhead.ts).
 */
export const PYTHON_SITECUSTOMIZE = `import sys


def _econagents_save_open_figures():
    import os

    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        names = os.listdir("/work")
        if any(n.lower().endswith((".png", ".svg")) for n in names):
            return
        for i, num in enumerate(plt.get_fignums(), 1):
            plt.figure(num).savefig("/work/figure_%d.png" % i, dpi=100)
    except Exception:
        pass


def _econagents_pyplot_imported():
    import threading
    import warnings

    # After the program's own filters, as if set at start-up before the program ran.
    warnings.filterwarnings(
        "ignore", message=".*non-interactive.*cannot be shown", append=True
    )
    # pyplot closes every figure in an atexit handler, and atexit handlers run last-in
    # first-out, so one registered here would find none left. Handlers of threading's shutdown
    # run before them.
    try:
        threading._register_atexit(_econagents_save_open_figures)
    except RuntimeError:
        pass  # imported during shutdown: nothing is left to show


class _EconagentsPyplotFinder:
    """Finds no module; calls _econagents_pyplot_imported once, as pyplot is first imported."""

    seen = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == "matplotlib.pyplot" and not cls.seen:
            cls.seen = True
            _econagents_pyplot_imported()
        return None


sys.meta_path.insert(0, _EconagentsPyplotFinder)
`;

/** Octave's site start-up file (OCTAVE_SITE_INITFILE): quiet, invisible plotting. */
export const OCTAVE_SITE_INIT = `warning('off', 'Octave:gnuplot-graphics');
set(0, 'defaultfigurevisible', 'off');
addpath('${SUPPORT_DIR}/octave');
`;

/**
 * Runs an Octave script and then saves the figures it left open (Octave closes them before its
 * atexit functions run, so this cannot be an atexit hook). The file name is checked by the caller.
 */
export function octaveRunScript(file: string, prelude = ''): string {
  return (
    `${prelude}unwind_protect; source('${file}'); ` +
    'unwind_protect_cleanup; econagents_save_open_figures(); end_unwind_protect'
  );
}

export const OCTAVE_SAVE_FIGURES = `function econagents_save_open_figures ()
  try
    if ! isempty ([dir('/work/*.png'); dir('/work/*.svg')])
      return;
    end
    figs = sort (get (0, 'children'));
    for i = 1:numel (figs)
      print (figs(i), '-dpng', sprintf ('/work/figure_%d.png', i));
    end
  catch
  end
end
`;

/** A passwd and group naming the sandbox user, for programs that look their user up. */
export const PASSWD = 'sandbox:x:65534:65534:sandbox:/work:/bin/sh\n';
export const GROUP = 'sandbox:x:65534:\n';
