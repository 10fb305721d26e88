#!/usr/bin/env python3
"""Interoperability driver: third-party HTTP signature libraries against Lectern's.

draft-cavage through `httpsig`, RFC 9421 through `http-message-signatures`, keys through
`cryptography`. Requests travel as JSON on stdin/stdout:
{"method", "url", "headers": [[name, value], ...], "body", "publicKey", "keyId"}.

  interop.py verify-cavage | verify-rfc9421   read a Lectern-signed request, print valid or invalid: why
  interop.py sign-cavage   | sign-rfc9421     print a request signed by the third-party library
"""
import base64, datetime, email.utils, hashlib, json, sys
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, MappingKeyResolver, algorithms
from httpsig.sign import HeaderSigner
from httpsig.verify import HeaderVerifier

KEY_ID = "https://remote.example/users/carol#main-key"
BODY = '{"@context":"https://www.w3.org/ns/activitystreams","type":"Follow","actor":"https://remote.example/users/carol"}'


def prepared(req):
    return requests.Request(req["method"], req["url"], headers=dict(req["headers"]),
                            data=req["body"].encode() or None).prepare()


def rfc_algorithm(pem):
    key = serialization.load_pem_public_key(pem.encode())
    return algorithms.ED25519 if isinstance(key, ed25519.Ed25519PublicKey) else algorithms.RSA_V1_5_SHA256


def verify_cavage(req):
    parts = urlsplit(req["url"])
    headers = {name: value for name, value in req["headers"]}
    path = parts.path + ("?" + parts.query if parts.query else "")
    verifier = HeaderVerifier(headers, req["publicKey"], method=req["method"], path=path,
                              host=parts.netloc, sign_header="signature")
    return None if verifier.verify() else "httpsig: signature does not verify"


def verify_rfc9421(req):
    resolver = MappingKeyResolver(public_keys={req["keyId"]: req["publicKey"].encode()}, private_keys={})
    verifier = HTTPMessageVerifier(signature_algorithm=rfc_algorithm(req["publicKey"]), key_resolver=resolver)
    try:
        verifier.verify(prepared(req), max_age=datetime.timedelta(hours=1))
        return None
    except Exception as error:  # the library raises on any failure
        return f"{type(error).__name__}: {error}"


def new_rsa():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public.decode()


def base_request():
    return {"method": "POST", "url": "https://blog.example/inbox", "body": BODY,
            "headers": [["Host", "blog.example"], ["Date", email.utils.formatdate(usegmt=True)],
                        ["Content-Type", "application/activity+json"]], "keyId": KEY_ID}


def sign_cavage():
    private, public = new_rsa()
    req = base_request()
    req["headers"].append(["Digest", "SHA-256=" + base64.b64encode(hashlib.sha256(BODY.encode()).digest()).decode()])
    signer = HeaderSigner(KEY_ID, private, algorithm="rsa-sha256", sign_header="signature",
                          headers=["(request-target)", "host", "date", "digest", "content-type"])
    signed = signer.sign(dict(req["headers"]), host="blog.example", method="POST", path="/inbox")
    req["headers"] = [[name, value] for name, value in signed.items()]
    req["publicKey"] = public
    return req


def sign_rfc9421():
    private, public = new_rsa()
    req = base_request()
    message = prepared(req)  # the library adds Content-Digest itself
    resolver = MappingKeyResolver(public_keys={}, private_keys={KEY_ID: private})
    HTTPMessageSigner(signature_algorithm=algorithms.RSA_V1_5_SHA256, key_resolver=resolver).sign(
        message, key_id=KEY_ID, label="sig1", body=BODY.encode(),
        covered_component_ids=("@method", "@target-uri", "content-type", "content-digest"))
    req["headers"] = [[name, value] for name, value in message.headers.items()]
    req["publicKey"] = public
    return req


def main():
    mode = sys.argv[1]
    if mode.startswith("verify"):
        req = json.load(sys.stdin)
        problem = verify_cavage(req) if mode == "verify-cavage" else verify_rfc9421(req)
        print("valid" if problem is None else f"invalid: {problem}")
    else:
        print(json.dumps(sign_cavage() if mode == "sign-cavage" else sign_rfc9421()))


if __name__ == "__main__":
    main()
