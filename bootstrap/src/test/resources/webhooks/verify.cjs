// Verifies messages with the reference library of Standard Webhooks (npm standardwebhooks), as a receiver would.
// Input: a JSON file of [{secret, id, timestamp, signature, body}]; output: one line per message, "ok" or "refused ...".
const { Webhook } = require("standardwebhooks");
const fs = require("fs");

for (const message of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  try {
    new Webhook(message.secret).verify(message.body, {
      "webhook-id": message.id,
      "webhook-timestamp": String(message.timestamp),
      "webhook-signature": message.signature,
    });
    console.log("ok");
  } catch (e) {
    console.log("refused " + e.message);
  }
}
