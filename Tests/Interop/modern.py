"""A second peer that takes RFC 9421 signatures only: a draft-cavage request gets 401, as a
server that has dropped draft-cavage answers it. Its protocol code is not Lectern's:

- keys: `cryptography` (RSA-2048, PKCS#8 / SPKI PEM);
- signing its own requests and verifying the blog's: `http-message-signatures` (PyPI), with the
  body's `Content-Digest` checked by the same library (`body=`);
- reading `Signature-Input` to learn the key id before verifying: `http-sf` (RFC 8941).

Beside `peer.Peer` (bovine, draft-cavage only), it lets the interop story show the double-knock
from both sides: this peer gets RFC 9421 at the first try, bovine gets draft-cavage after one
refused knock, which the blog then remembers.
"""

from __future__ import annotations

import datetime
import json
import time

import aiohttp
import http_sf
import requests
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, MappingKeyResolver, algorithms

from peer import ACTIVITY_JSON, Received, id_of

REQUIRED = ("@method", "@target-uri")


def new_rsa() -> tuple[bytes, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, public.decode()


class ModernPeer:
    """Actors `names` on http://127.0.0.1:PORT that speak RFC 9421 only."""

    def __init__(self, names):
        self.names = sorted(set(names))
        self.keys = {name: new_rsa() for name in self.names}
        self.base = ""
        self.received: list[Received] = []
        #: draft-cavage requests refused with 401 (POSTs and GETs)
        self.refused_cavage = 0
        #: RFC 9421-signed GETs the blog made, and how many the library verified
        self.gets = {"signed": 0, "verified": 0}
        self._runner: web.AppRunner | None = None
        self.session: aiohttp.ClientSession | None = None
        self._keys: dict[str, str] = {}

    @property
    def host(self) -> str:
        return self.base.removeprefix("http://")

    def actor_id(self, name: str) -> str:
        return f"{self.base}/users/{name}"

    def key_id(self, name: str) -> str:
        return self.actor_id(name) + "#main-key"

    def inbox(self, name: str) -> str:
        return self.actor_id(name) + "/inbox"

    def profile(self, name: str) -> dict:
        actor_id = self.actor_id(name)
        return {"@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                "id": actor_id, "type": "Person", "preferredUsername": name, "name": name.capitalize(),
                "inbox": self.inbox(name), "outbox": actor_id + "/outbox", "followers": actor_id + "/followers",
                "url": f"{self.base}/@{name}",
                "publicKey": {"id": self.key_id(name), "owner": actor_id, "publicKeyPem": self.keys[name][1]}}

    # MARK: talking to the blog

    async def post(self, name: str, url: str, activity: dict) -> int:
        """A POST signed with RFC 9421 by http-message-signatures as `name`."""
        body = json.dumps(activity).encode()
        message = requests.Request("POST", url, data=body, headers={"Content-Type": ACTIVITY_JSON}).prepare()
        resolver = MappingKeyResolver(public_keys={}, private_keys={self.key_id(name): self.keys[name][0]})
        HTTPMessageSigner(signature_algorithm=algorithms.RSA_V1_5_SHA256, key_resolver=resolver).sign(
            message, key_id=self.key_id(name), label="sig1", body=body,
            covered_component_ids=("@method", "@target-uri", "content-type", "content-digest"))
        async with self.session.post(url, data=body, headers=dict(message.headers)) as response:
            return response.status

    # MARK: verifying the blog

    async def verify(self, method: str, url: str, headers, body: bytes | None) -> tuple[str | None, str | None, str | None]:
        """(the key's owner when the library verified the signature, the key id, why not)."""
        try:
            inputs = http_sf.parse(headers.get("signature-input", "").encode(), tltype="dictionary")
            label, (_, parameters) = next(iter(inputs.items()))
            key_id = parameters["keyid"]
        except Exception as error:  # noqa: BLE001 - a missing or odd header is an answer
            return None, None, f"Signature-Input unreadable: {error!r}"
        owner_url = key_id.split("#", 1)[0]
        if key_id not in self._keys:
            async with self.session.get(owner_url, headers={"Accept": ACTIVITY_JSON}) as response:
                document = await response.json(content_type=None) if response.status == 200 else {}
            key = document.get("publicKey") if isinstance(document, dict) else None
            if not isinstance(key, dict) or key.get("id") != key_id or key.get("owner") != document.get("id"):
                return None, key_id, f"no key {key_id} in {owner_url}"
            self._keys[key_id] = key["publicKeyPem"]
        message = requests.Request(method, url, headers=dict(headers), data=body or None).prepare()
        verifier = HTTPMessageVerifier(signature_algorithm=algorithms.RSA_V1_5_SHA256,
                                       key_resolver=MappingKeyResolver(public_keys={key_id: self._keys[key_id].encode()},
                                                                       private_keys={}))
        required = REQUIRED + (("content-digest",) if body else ())
        try:
            verifier.verify(message, max_age=datetime.timedelta(minutes=10), require_components=required, body=body)
        except Exception as error:  # noqa: BLE001 - the library raises on any failure
            return None, key_id, f"{type(error).__name__}: {error}"
        return owner_url, key_id, None

    # MARK: server

    async def start(self):
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        app = web.Application(middlewares=[self._only_rfc9421])
        app.router.add_get("/.well-known/webfinger", self._webfinger)
        app.router.add_get("/users/{name}", self._actor)
        app.router.add_post("/users/{name}/inbox", self._inbox)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.base = f"http://127.0.0.1:{self._runner.addresses[0][1]}"

    async def stop(self):
        if self._runner:
            await self._runner.cleanup()
        if self.session:
            await self.session.close()

    @web.middleware
    async def _only_rfc9421(self, request: web.Request, handler):
        """A draft-cavage request (a `Signature` without `Signature-Input`) gets 401; a signed
        GET is verified by the library (and answered either way, as documents here are public)."""
        if "signature" in request.headers and "signature-input" not in request.headers:
            self.refused_cavage += 1
            return web.Response(status=401, text="RFC 9421 signatures only")
        if request.method == "GET" and "signature-input" in request.headers:
            self.gets["signed"] += 1
            signer, _, _ = await self.verify("GET", self.base + request.raw_path, request.headers, None)
            if signer:
                self.gets["verified"] += 1
        return await handler(request)

    async def _webfinger(self, request: web.Request) -> web.Response:
        resource = request.query.get("resource", "")
        for name in self.names:
            if resource == f"acct:{name}@{self.host}":
                return web.Response(text=json.dumps({"subject": resource, "links": [
                    {"rel": "self", "type": ACTIVITY_JSON, "href": self.actor_id(name)}]}), content_type="application/jrd+json")
        return web.Response(status=404)

    async def _actor(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.keys:
            return web.Response(status=404)
        return web.Response(text=json.dumps(self.profile(name)), content_type=ACTIVITY_JSON)

    async def _inbox(self, request: web.Request) -> web.Response:
        body = await request.read()
        signer, key_id, error = await self.verify("POST", self.base + request.raw_path, request.headers, body)
        try:
            activity = json.loads(body)
        except ValueError:
            activity = {}
        activity = activity if isinstance(activity, dict) else {}
        self.received.append(Received(self.base + request.path, activity, signer, key_id, error, time.monotonic(),
                                      request.headers.copy(), body))
        if signer is None or signer != id_of(activity.get("actor")):
            return web.Response(status=401, text=error or "signed by someone else")
        return web.Response(status=202)
