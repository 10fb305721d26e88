"""Server CPU per refused inbox request (the bound: under 1 ms). Starts `lectern serve` on a new
site, a key server on loopback with one actor holding an RSA key of the largest accepted size
(4096 bits), lets one valid request cache the key, then sends N requests whose signature bytes
are damaged (each is refused with 401 after a verification) and reads the server's CPU time
(utime + stime, /proc/PID/stat) before and after. Usage: refused_cpu.py LECTERN PORT [N]"""
import base64, hashlib, http.client, http.server, json, os, subprocess, sys, tempfile, threading, time
from email.utils import formatdate
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

lectern, port = sys.argv[1], int(sys.argv[2])
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
key = rsa.generate_private_key(public_exponent=65537, key_size=4096)
pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()

keys = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
base = f"http://127.0.0.1:{keys.server_address[1]}"
actor = base + "/users/a"
document = json.dumps({"@context": "https://www.w3.org/ns/activitystreams", "id": actor, "type": "Person",
                       "preferredUsername": "a", "inbox": actor + "/inbox",
                       "publicKey": {"id": actor + "#main-key", "owner": actor, "publicKeyPem": pem}}).encode()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "application/activity+json")
        self.send_header("Content-Length", str(len(document))); self.end_headers(); self.wfile.write(document)
    def log_message(self, *args): pass
keys.RequestHandlerClass = Handler
threading.Thread(target=keys.serve_forever, daemon=True).start()

site = tempfile.mkdtemp(prefix="lectern-refused-")
subprocess.run([lectern, "init", site], check=True, stdout=subprocess.DEVNULL)
config = open(f"{site}/lectern.yml").read().replace("http://127.0.0.1:8080", f"http://127.0.0.1:{port}")
open(f"{site}/lectern.yml", "w").write(config + "\nfederation:\n  allowPrivateAddresses: true\n")
server = subprocess.Popen([lectern, "serve", "-s", site, "--port", str(port), "--log-level", "error"])
try:
    for _ in range(300):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/"); break
        except OSError: time.sleep(0.1)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(n, damage):
        body = json.dumps({"id": f"{actor}/likes/{n}", "type": "Like", "actor": actor,
                           "object": f"http://127.0.0.1:{port}/2025/welcome-to-lectern/"}).encode()
        date, digest = formatdate(usegmt=True), "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()
        signed = f"(request-target): post /inbox\nhost: 127.0.0.1:{port}\ndate: {date}\ndigest: {digest}"
        signature = bytearray(key.sign(signed.encode(), padding.PKCS1v15(), hashes.SHA256()))
        if damage: signature[len(signature) // 2] ^= 1
        header = (f'keyId="{actor}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",'
                  f'signature="{base64.b64encode(bytes(signature)).decode()}"')
        connection.request("POST", "/inbox", body, {"Host": f"127.0.0.1:{port}", "Date": date, "Digest": digest,
                                                    "Signature": header, "Content-Type": "application/activity+json"})
        response = connection.getresponse(); response.read()
        return response.status

    def cpu():
        fields = open(f"/proc/{server.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    assert post(0, damage=False) == 202, "the valid request was not accepted"
    for n in range(1, 51): post(n, damage=True)  # warm-up
    before, started = cpu(), time.monotonic()
    statuses = [post(n, damage=True) for n in range(51, 51 + count)]
    used, elapsed = cpu() - before, time.monotonic() - started
    assert all(s == 401 for s in statuses), f"not all refused: {set(statuses)}"
    print(f"| refused (damaged RSA-4096 signature, key cached) | {count} | {used * 1000 / count:.3f} ms | {count / elapsed:.0f}/s |")
finally:
    server.terminate(); server.wait()
