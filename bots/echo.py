"""The minimal line echo program in Python, for zole-arena's protocol benchmark when the
fastest bundled bot is a Python one (no C compiler): each line read is written back at once."""

import sys


def main() -> None:
    for line in sys.stdin:
        if line.startswith("quit"):
            break
        sys.stdout.write(line)
        sys.stdout.flush()


main()
