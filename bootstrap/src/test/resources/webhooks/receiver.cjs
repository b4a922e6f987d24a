// A webhook receiver for the tests: verifies every message with the reference library of Standard Webhooks (npm
// standardwebhooks), with each secret given on the command line, as a receiver would.
// Usage: node receiver.cjs SECRET [SECRET ...]; listens on 127.0.0.1 at $PORT (or any free port), prints
// "listening PORT", then one JSON line per message. It answers with the status its mode names ("200", "500",
// "410" ...), 200 after 200 ms ("slow") or never ("hang"); POST /__mode with the mode as the body changes it, POST /__secrets with the
// secrets separated by spaces the secrets. With $TLS_CERT and $TLS_KEY (PEM files) it serves https instead.
const fs = require("fs");
const http = require("http");
const https = require("https");
const { Webhook } = require("standardwebhooks");

let secrets = process.argv.slice(2);
let mode = process.env.MODE || "200";

const handler = (req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    if (req.url === "/__secrets") {
      secrets = body.split(" ");
      res.end("ok");
      return;
    }
    if (req.url === "/__mode") {
      mode = body;
      res.end("ok");
      return;
    }
    const refusals = [];
    for (const secret of secrets) {
      try {
        new Webhook(secret).verify(body, req.headers);
      } catch (e) {
        refusals.push(e.message);
      }
    }
    console.log(JSON.stringify({
      verified: refusals.length === 0,
      refusals,
      id: req.headers["webhook-id"] || null,
      signatures: (req.headers["webhook-signature"] || "").split(" ").length,
      content_type: req.headers["content-type"] || null,
      body,
      answered: mode,
    }));
    if (mode === "hang") {
      return;
    }
    if (mode === "slow") {
      setTimeout(() => res.end(), 200);
      return;
    }
    res.statusCode = Number(mode);
    res.end();
  });
};
const server = process.env.TLS_CERT
  ? https.createServer({ cert: fs.readFileSync(process.env.TLS_CERT), key: fs.readFileSync(process.env.TLS_KEY) }, handler)
  : http.createServer(handler);
server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => console.log("listening " + server.address().port));
