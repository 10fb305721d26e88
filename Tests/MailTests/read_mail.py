"""Reads mails as a mail client does (Python's email package, policy=default) for the
differential test: each file named on the command line, one JSON line each with the decoded
From name and address, To, Subject, the headers' names, and the text of each body part."""
import json
import sys
from email import message_from_bytes, policy

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        message = message_from_bytes(f.read(), policy=policy.default)
    parts = [part.get_content() for part in message.walk() if not part.is_multipart()]
    sender = message["From"].addresses[0]
    print(json.dumps({"fromName": sender.display_name, "fromAddress": sender.addr_spec, "to": str(message["To"]),
                      "subject": str(message["Subject"]), "headers": list(message.keys()), "parts": parts,
                      "defects": [str(d) for d in message.defects] + [str(d) for p in message.walk() for d in p.defects]}))
