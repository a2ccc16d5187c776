"""One null window on the empty side-4 board, logged as it goes (docs/side4.md's long runs).

    python bench/side4_window.py --checkpoint FILE [--window LO HI] [--tt-mb 4096] [--threads 2]

Asks ``catena.solve(window=(LO, HI))`` on the empty side-4 board (game type komi, standard
scoring) and prints a line each time the search's focus changes (or once a minute): wall
seconds, nodes, the proven bounds and the focus (the null window and the main thread's
line near the root, see catena.SolveFocus), so the log shows how long each reply near the
root took.  Ctrl-C or SIGTERM stops it and saves the checkpoint; the same command resumes.  Run
with PYTHONPATH set to the build.
"""

import argparse

import catena
from catena._interrupt import sigterm_as_ctrl_c
from catena.progress import bounds_text, focus_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--window", nargs=2, type=float, default=(0, 0), metavar=("LO", "HI"))
    parser.add_argument("--tt-mb", type=float, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    last = {"text": None, "seconds": 0.0}

    def progress(nodes, seconds, lower, upper, focus):
        text = focus_text(focus)
        if text != last["text"] or seconds - last["seconds"] >= 60:
            print(f"{seconds:9.1f} s {nodes / 1e9:8.3f} G nodes, value in "
                  f"{bounds_text(lower, upper)}{text}", flush=True)
            last.update(text=text, seconds=seconds)

    with sigterm_as_ctrl_c():
        result = catena.solve(catena.Position(size=4), tt_mb=args.tt_mb, threads=args.threads,
                              window=tuple(args.window), checkpoint=args.checkpoint, progress=progress)
    print(result, flush=True)


if __name__ == "__main__":
    main()
