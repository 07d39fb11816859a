/*
 * Preload for child processes of the tests (`node --require ./no-network.cjs --import tsx ...`):
 * any attempt to reach the network (TCP connect, DNS lookup, fetch) is written
 * to stderr as "NETWORK ATTEMPT ..." and fails. Local IPC (Unix sockets, as
 * tsx uses) is allowed. Worker threads inherit execArgv, so they load it too.
 * Plain CommonJS: tsx's ES module hooks are not active in worker threads.
 */
"use strict";
const dns = require("node:dns");
const net = require("node:net");
const { isMainThread } = require("node:worker_threads");

function refuse(what) {
  const message = `NETWORK ATTEMPT (${isMainThread ? "main thread" : "worker thread"}): ${what}`;
  process.stderr.write(`${message}\n`);
  throw new Error(message);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0];
  const local = typeof options === "string" || (options !== null && typeof options === "object" && Boolean(options.path));
  if (!local) refuse(`connect ${JSON.stringify(args[0])}`);
  return connect.apply(this, args);
};
dns.lookup = (host) => refuse(`dns.lookup ${host}`);
globalThis.fetch = (url) => refuse(`fetch ${String(url)}`);
