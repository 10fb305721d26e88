"""A real SMTP server for the newsletter's tests (aiosmtpd, on loopback): it takes every mail
and appends it, with its envelope, as one JSON line to the file given; it refuses with 550 every
recipient whose address starts with "bounce", and answers 451 (try later) to those starting with
"busy". Prints "ready PORT" once it listens.

Usage: python3 smtp_sink.py OUTPUT-FILE
"""
import json
import socket
import sys

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, path):
        self.path = path

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 5.1.1 No such user here"
        if address.startswith("busy"):
            return "451 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"from": envelope.mail_from, "to": envelope.rcpt_tos,
                                  "data": envelope.original_content.decode("utf-8", "replace")}) + "\n")
        return "250 Message accepted"


# A free port (aiosmtpd's controller checks it is up by connecting to the port it was given).
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
controller = Controller(Sink(sys.argv[1]), hostname="127.0.0.1", port=port)
controller.start()
print(f"ready {port}", flush=True)
try:
    sys.stdin.read()  # until the test closes our input
finally:
    controller.stop()
