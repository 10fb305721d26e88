"""The other fediverse server: a small aiohttp server whose protocol code is bovine's.

Everything that makes it ActivityPub comes from bovine (PyPI), not from Lectern:

- keys: `bovine.crypto.generate_rsa_public_private_key` (RSA-2048, PKCS#8 / SPKI PEM);
- actor documents: `bovine.activitystreams.Actor(...).build()` (inline `publicKey`, `#main-key`);
- WebFinger answers: `bovine.utils.webfinger_response_json`;
- activities and notes: `bovine.activitystreams.factories_for_actor_object` (ActivityFactory,
  ObjectFactory);
- outgoing requests: `bovine.clients.signed_http.SignedHttpClient` (draft-cavage, rsa-sha256,
  `(request-target) host date digest content-type` on POST, `... host date accept` on GET);
- incoming requests: `bovine.crypto.build_validate_http_signature_raw` (digest, date window,
  signature), with keys parsed by `bovine.crypto.types.CryptographicIdentifier.from_public_key`;
- WebFinger lookups: `bovine.clients.lookup_uri_with_webfinger`.

Object integrity proofs (FEP-8b32) are apsig's (PyPI, an independent implementation):
`apsig.proof.ProofSigner` signs the peer's documents with eddsa-jcs-2022, `apsig.proof.ProofVerifier`
checks the blog's; each actor's Ed25519 key (`cryptography`) is listed in its `assertionMethod`
as a Multikey encoded by `multiformats` (FEP-521a).

This file only wires them to routes and records what arrives. bovine 0.5.19 checks draft-cavage
only, so the peer is what such a server is: a request signed with RFC 9421 gets 401 (counted in
`knocks`), and the blog must knock again with draft-cavage.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from urllib.parse import urlparse

import aiohttp
from aiohttp import web
from apsig.proof import ProofSigner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from multiformats import multibase, multicodec

from bovine.activitystreams import Actor, factories_for_actor_object
from bovine.clients.signed_http import SignedHttpClient
from bovine.crypto import build_validate_http_signature_raw, generate_rsa_public_private_key
from bovine.crypto.helper import content_digest_sha256
from bovine.crypto.signature import Signature
from bovine.crypto.signature_checker import SignatureChecker
from bovine.crypto.types import CryptographicIdentifier
from bovine.types import Visibility
from bovine.utils import webfinger_response_json

PUBLIC = "https://www.w3.org/ns/activitystreams#Public"
ACTIVITY_JSON = "application/activity+json"


def id_of(value) -> str | None:
    """The id of a reference: a string, or an embedded object's `id`."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return value.get("id")
    if isinstance(value, list) and len(value) == 1:
        return id_of(value[0])
    return None


def as_list(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def loopback_only(url: str) -> str:
    """Every request this test makes goes to 127.0.0.1: refuse anything else outright."""
    host = urlparse(url).hostname
    if host != "127.0.0.1":
        raise ValueError(f"refusing to contact {url}: the interop test only talks to 127.0.0.1")
    return url


class QueryKeepingChecker(SignatureChecker):
    """bovine's checker, with `(request-target)` holding the query string as draft-cavage says
    ("the path and query"). bovine 0.5.19 builds it from the path alone, so a signed GET with a
    query (Lectern's WebFinger lookups) fails there; this is tried only after bovine's own."""

    def build_http_signature(self, signature_fields, method, url, parsed_signature, headers):
        signature = super().build_http_signature(signature_fields, method, url, parsed_signature, headers)
        parsed = urlparse(url)
        if parsed.query:
            target = f"{method.lower()} {parsed.path}?{parsed.query}"
            signature.fields = [(name, target if name == "(request-target)" else value)
                                for name, value in signature.fields]
        return signature


@dataclass
class Received:
    """One POST an inbox of the peer received, with what bovine said of its signature."""

    #: the inbox's URL
    path: str
    activity: dict
    #: the key's controller when bovine verified the signature, else None
    signer: str | None
    key_id: str | None
    error: str | None
    at: float
    #: the request as received (headers, body), to re-check it later
    headers: dict | None = None
    body: bytes = b""

    @property
    def type(self) -> str | None:
        return self.activity.get("type")

    @property
    def object(self) -> dict | None:
        value = self.activity.get("object")
        return value if isinstance(value, dict) else None

    @property
    def verified(self) -> bool:
        """bovine verified the signature and the key belongs to the activity's actor."""
        return self.signer is not None and self.signer == id_of(self.activity.get("actor"))


class Peer:
    """Actors `names` on http://127.0.0.1:PORT, each with its own bovine-generated key."""

    def __init__(self, names):
        self.names = sorted(set(names))
        # bovine generates the key pairs: (public SPKI PEM, private PKCS#8 PEM).
        self.keys = {name: generate_rsa_public_private_key() for name in self.names}
        #: Ed25519 keys for object integrity proofs, listed in each actor's `assertionMethod`
        self.assertion_keys = {name: Ed25519PrivateKey.generate() for name in self.names}
        #: GETs the blog made, per path
        self.get_paths: dict[str, int] = {}
        self.base = ""
        #: documents served as they are at exact paths (fixtures' remote objects)
        self.documents: dict[str, dict] = {}
        self.received: list[Received] = []
        #: GETs the blog made: how many were signed, and how many of those bovine verified
        self.gets = {"total": 0, "signed": 0, "verified": 0, "verified_with_query": 0}
        self.get_failures: list[str] = []
        #: requests signed with RFC 9421 (`Signature-Input`), refused with 401: (method, path)
        self.knocks: list[tuple[str, str]] = []
        self._key_cache: dict[str, CryptographicIdentifier] = {}
        self._validate = build_validate_http_signature_raw(self._retrieve_key)
        self._validate_with_query = QueryKeepingChecker(self._retrieve_key).validate_signature
        self._runner: web.AppRunner | None = None
        self.session: aiohttp.ClientSession | None = None
        self._clients: dict[str, SignedHttpClient] = {}

    # MARK: identities

    @property
    def host(self) -> str:
        return self.base.removeprefix("http://")

    def actor_id(self, name: str) -> str:
        return f"{self.base}/users/{name}"

    def key_id(self, name: str) -> str:
        return self.actor_id(name) + "#main-key"

    def inbox(self, name: str) -> str:
        return self.actor_id(name) + "/inbox"

    def followers(self, name: str) -> str:
        return self.actor_id(name) + "/followers"

    def profile(self, name: str) -> dict:
        """The actor document, as bovine builds it."""
        actor_id = self.actor_id(name)
        return Actor(
            id=actor_id,
            type="Person",
            name=name.capitalize(),
            preferred_username=name,
            inbox=self.inbox(name),
            outbox=actor_id + "/outbox",
            followers=self.followers(name),
            following=actor_id + "/following",
            url=f"{self.base}/@{name}",
            icon={"type": "Image", "url": f"{self.base}/avatars/{name}.png"},
            public_key=self.keys[name][0],
            public_key_name="main-key",
        ).build(visibility=Visibility.OWNER)

    def assertion_key_id(self, name: str) -> str:
        return self.actor_id(name) + "#ed25519-key"

    def multikey(self, name: str) -> dict:
        """FEP-521a: the Ed25519 key as a Multikey (multicodec ed25519-pub, multibase base58btc)."""
        raw = self.assertion_keys[name].public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return {"id": self.assertion_key_id(name), "type": "Multikey", "controller": self.actor_id(name),
                "publicKeyMultibase": multibase.encode(multicodec.wrap("ed25519-pub", raw), "base58btc")}

    def prove(self, name: str, document: dict) -> dict:
        """`document` with an eddsa-jcs-2022 proof by `name`'s key, made by apsig."""
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        return ProofSigner(self.assertion_keys[name]).sign(document, {
            "type": "DataIntegrityProof", "cryptosuite": "eddsa-jcs-2022",
            "verificationMethod": self.assertion_key_id(name), "proofPurpose": "assertionMethod", "created": created})

    def factories(self, name: str):
        """bovine's (ActivityFactory, ObjectFactory) for `name`."""
        return factories_for_actor_object(self.profile(name))

    def new_id(self, name: str, kind: str = "activities") -> str:
        return f"{self.actor_id(name)}/{kind}/{uuid.uuid4().hex[:12]}"

    def client(self, name: str) -> SignedHttpClient:
        if name not in self._clients:
            public, private = self.keys[name]
            self._clients[name] = SignedHttpClient(self.session, self.key_id(name), private)
        return self._clients[name]

    # MARK: talking to the blog (signed by bovine)

    async def post(self, name: str, url: str, activity: dict) -> tuple[int, str]:
        """A POST of `activity` to `url`, signed by bovine as `name`; (status, body)."""
        response = await self.client(name).post(loopback_only(url), json.dumps(activity))
        try:
            return response.status, await response.text()
        finally:
            response.release()

    async def get(self, name: str, url: str) -> tuple[int, dict | None, str]:
        """A GET of `url` signed by bovine as `name` (Accept: application/activity+json)."""
        response = await self.client(name).get(loopback_only(url))
        try:
            text = await response.text()
            try:
                document = json.loads(text)
            except ValueError:
                document = None
            return response.status, document, text
        finally:
            response.release()

    async def forged_post(self, name: str, as_name: str, url: str, activity: dict) -> int:
        """A POST signed by bovine with `name`'s private key but `as_name`'s keyId: a forgery."""
        forger = SignedHttpClient(self.session, self.key_id(as_name), self.keys[name][1])
        response = await forger.post(loopback_only(url), json.dumps(activity))
        response.release()
        return response.status

    async def recheck(self, item: "Received", body: bytes | None = None) -> str | None:
        """bovine's verdict on `item`'s request again; with another `body` (and that body's
        digest, by bovine, in place of the signed one) it must fail on the signature itself."""
        headers = item.headers.copy()
        if body is not None:
            headers["digest"] = content_digest_sha256(body)
        else:
            body = item.body

        async def get_body():
            return body

        return await self._validate("post", item.path, headers, get_body)

    # MARK: what arrived

    def arrivals(self, *, paths=None, type=None, since: float = 0) -> list[Received]:
        return [r for r in self.received
                if (paths is None or r.path in paths) and (type is None or r.type == type) and r.at >= since]

    async def wait_for(self, predicate, timeout: float, *, paths=None, type=None, since: float = 0) -> Received | None:
        """The first arrival matching, waiting up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for item in self.arrivals(paths=paths, type=type, since=since):
                if predicate(item):
                    return item
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(0.05)

    # MARK: server

    async def start(self):
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))
        app = web.Application(middlewares=[self._gets_middleware])
        app.router.add_get("/.well-known/webfinger", self._webfinger)
        app.router.add_get("/users/{name}", self._actor)
        app.router.add_post("/users/{name}/inbox", self._inbox)
        app.router.add_post("/inbox", self._inbox)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"

    async def stop(self):
        if self._runner:
            await self._runner.cleanup()
        if self.session:
            await self.session.close()

    @staticmethod
    def _json(document: dict, status: int = 200) -> web.Response:
        return web.Response(status=status, text=json.dumps(document), content_type=ACTIVITY_JSON)

    @web.middleware
    async def _gets_middleware(self, request: web.Request, handler):
        """Every GET from the blog is counted, and its signature (if any) checked by bovine."""
        if "signature-input" in request.headers:
            self.knocks.append((request.method, request.path))
            return web.Response(status=401, text="draft-cavage signatures only")
        if request.method == "GET":
            self.gets["total"] += 1
            self.get_paths[request.path] = self.get_paths.get(request.path, 0) + 1
            if "signature" in request.headers:
                self.gets["signed"] += 1
                url = self.base + request.raw_path
                try:
                    signer = await self._validate("get", url, request.headers, None)
                    if not signer and request.query_string:
                        signer = await self._validate_with_query("get", url, request.headers, None)
                        if signer:
                            self.gets["verified_with_query"] += 1
                except Exception as error:  # noqa: BLE001 - reported, never fatal here
                    signer = None
                    self.get_failures.append(f"GET {request.path}: {error!r}")
                if signer:
                    self.gets["verified"] += 1
                elif len(self.get_failures) < 20:
                    self.get_failures.append(f"GET {request.path}: signature not verified by bovine "
                                             f"({request.headers.get('signature', '')[:120]}…)")
            document = self.documents.get(request.path)
            if document is not None:
                return self._json(document)
        return await handler(request)

    async def _webfinger(self, request: web.Request) -> web.Response:
        resource = request.query.get("resource", "")
        for name in self.names:
            if resource == f"acct:{name}@{self.host}":
                return web.Response(text=json.dumps(webfinger_response_json(resource, self.actor_id(name))),
                                    content_type="application/jrd+json")
        return web.Response(status=404)

    async def _actor(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.keys:
            return web.Response(status=404)
        profile = self.profile(name)
        profile["@context"] = as_list(profile.get("@context")) + ["https://w3id.org/security/data-integrity/v1",
                                                                 "https://w3id.org/security/multikey/v1"]
        profile["assertionMethod"] = [self.multikey(name)]
        return self._json(profile)

    async def _inbox(self, request: web.Request) -> web.Response:
        body = await request.read()

        async def get_body():
            return body

        signer, error, key_id = None, None, None
        try:
            key_id = Signature.from_signature_header(request.headers["signature"]).key_id
        except Exception:  # noqa: BLE001 - a missing or odd header: bovine says so below
            pass
        try:
            signer = await self._validate("post", self.base + request.raw_path, request.headers, get_body)
            if signer is None:
                error = "bovine did not verify the signature"
        except Exception as failure:  # noqa: BLE001
            error = f"bovine raised {failure!r}"
        try:
            activity = json.loads(body)
            if not isinstance(activity, dict):
                activity = {}
        except ValueError:
            activity = {}
        self.received.append(Received(self.base + request.path, activity, signer, key_id, error, time.monotonic(),
                                      request.headers.copy(), body))
        if signer is None:
            return web.Response(status=401, text="signature not verified")
        return web.Response(status=202)

    async def _retrieve_key(self, key_id: str) -> CryptographicIdentifier | None:
        """The blog's key for `key_id`: its document is fetched (a signed GET, as Mastodon does
        in secure mode) and its `publicKey` parsed by bovine. Only the blog's keys are asked for."""
        if key_id in self._key_cache:
            return self._key_cache[key_id]
        url = key_id.split("#", 1)[0]
        if url.startswith(self.base + "/"):
            return None  # never our own keys: only the blog signs what we receive
        status, document, _ = await self.get("instance" if "instance" in self.keys else self.names[0], url)
        if status != 200 or not isinstance(document, dict):
            return None
        keys = [k for k in as_list(document.get("publicKey", document)) if isinstance(k, dict)]
        key = next((k for k in keys if k.get("id") == key_id), None)
        if key is None:
            return None
        identifier = CryptographicIdentifier.from_public_key(key)
        if identifier.controller != document.get("id") and document.get("type") not in ("Key", "CryptographicKey"):
            return None
        self._key_cache[key_id] = identifier
        return identifier
