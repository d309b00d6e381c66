"""A scripted external bot for tests: ``python fake_bot.py BEHAVIOUR [--name NAME] ...``.

good: plays the first legal move (after a log line); the others misbehave on the first
move request (or at start) in the way their name says. ``--name`` sets the name sent in
``ready`` (default ``fake-BEHAVIOUR``; ``--name ''`` sends none); other arguments are
ignored, so tests can give two programs commands that differ only at the end."""

import json
import sys
import time


def send(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(mode: str, name: str) -> None:
    if mode == "crash-start":
        print("cannot load my neural net", file=sys.stderr)
        sys.exit(3)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if mode == "silent-hello":
                continue
            ready = {"type": "ready", "protocol": 2 if mode == "bad-protocol" else 1}
            if name:
                ready["name"] = name
            send(ready)
            if mode == "deaf":
                time.sleep(60)  # stops reading: the host's writes fill the pipe
        elif kind == "move_request":
            rid = msg["id"]
            first = msg["legal"][0]
            if mode == "good":
                send({"type": "log", "message": "thinking"})
                send({"type": "move", "id": rid, "move": first})
            elif mode == "limit":  # reports the budget it was given
                if msg["time_limit"] is None:
                    send({"type": "move", "id": rid, "move": first})
                else:
                    send({"type": "error",
                          "message": f"time_limit {msg['time_limit']} timeout {msg['timeout']}"})
            elif mode == "crash-move":
                print("Traceback: ZeroDivisionError", file=sys.stderr)
                sys.exit(1)
            elif mode == "hang":
                time.sleep(60)
            elif mode == "nonsense":
                sys.stdout.write("I play the seven!\n")
                sys.stdout.flush()
            elif mode == "illegal":
                hand = msg["view"]["hand"]
                bad = {"card": hand[0], "capture": ["1d", "2d", "3d", "4d"]}
                if bad["card"] in bad["capture"]:
                    bad["capture"] = ["1c", "2c", "3c", "4c"]
                send({"type": "move", "id": rid, "move": bad})
            elif mode == "not-my-card":
                hidden = [c for c in ("1d", "1c", "1s", "1b") if c not in msg["view"]["hand"]]
                send({"type": "move", "id": rid, "move": {"card": hidden[0], "capture": []}})
            elif mode in ("upper-case", "wide-digits"):  # a legal move, spelt otherwise
                text = first["card"]
                text = text.upper() if mode == "upper-case" else "".join(
                    chr(ord(ch) + 0xFEE0) if ch.isdigit() else ch for ch in text)
                send({"type": "move", "id": rid, "move": {**first, "card": text}})
            elif mode == "malformed-move":
                send({"type": "move", "id": rid, "move": {"card": "seven"}})
            elif mode == "wrong-id":
                send({"type": "move", "id": rid + 5, "move": first})
            elif mode == "error":
                send({"type": "error", "message": "out of memory"})
        elif kind == "quit":
            return


if __name__ == "__main__":
    args = sys.argv[1:]
    given = args[args.index("--name") + 1] if "--name" in args else f"fake-{args[0]}"
    main(args[0], given)
