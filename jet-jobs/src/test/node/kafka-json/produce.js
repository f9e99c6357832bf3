// Publishes events of StreamGrid's test schema "doubled" (account: long key, ts: event time, cents: long)
// as JSON values with kafkajs, each into its key's partition by StreamGrid's partitioner, then four bad
// values a job must reject with the reason. Usage: node produce.js BROKERS TOPIC PARTITIONS EVENTS START_MS
'use strict';
const { Kafka, logLevel } = require('kafkajs');

const [brokers, topic, partitionsText, eventsText, startText] = process.argv.slice(2);
const partitions = Number(partitionsText);
const events = Number(eventsText);
const start = Number(startText);

// StreamGrid's partitioner (part of its log format): MurmurHash3's fmix64 of a long key, floor-modulo the
// partition count. A string key is hashed first with 64-bit FNV-1a over its UTF-8 bytes.
const MASK = (1n << 64n) - 1n;
function fmix64(value) {
  let h = BigInt.asUintN(64, value);
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & MASK;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & MASK;
  h ^= h >> 33n;
  return BigInt.asIntN(64, h);
}
function partitionOf(longKey) {
  const n = BigInt(partitions);
  return Number(((fmix64(BigInt(longKey)) % n) + n) % n);
}

async function main() {
  const kafka = new Kafka({ clientId: 'node-publisher', brokers: brokers.split(','), logLevel: logLevel.WARN });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const batch = [];
  for (let i = 0; i < events; i++) {
    const account = i % 300;
    const cents = 1 + (i * 7919) % 10000;
    batch.push({ partition: partitionOf(account), value: JSON.stringify({ account, ts: start + i, cents }) });
    if (batch.length === 1000 || i === events - 1) {
      await producer.send({ topic, acks: -1, messages: batch.splice(0) });
    }
  }
  const home = partitionOf(7);
  await producer.send({ topic, acks: -1, messages: [
    { partition: 0, value: JSON.stringify({ account: 'x', ts: start, cents: 5 }) },
    { partition: home, value: JSON.stringify({ account: 7, cents: 5 }) },
    { partition: (home + 1) % partitions, value: JSON.stringify({ account: 7, ts: start + events, cents: 5 }) },
    { partition: home, value: '{"account":7,"ts":' },
  ] });
  await producer.disconnect();
  console.log(`published ${events} events and 4 bad values to ${topic}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
