// A job queue on a table: enqueue, claim with a lock, complete.
const { odata } = require("@azure/data-tables");
const { jobs, locks } = require("./db");

let counter = 0;

async function enqueue(kind, payload) {
  const id = `${Date.now()}-${counter++}`;
  await jobs.createEntity({ partitionKey: "pending", rowKey: id, kind, payload: JSON.stringify(payload) }); // expect: ts/constant-partition-key
  return id;
}

async function pending(limit) {
  const out = [];
  for await (const j of jobs.listEntities({ queryOptions: { filter: odata`PartitionKey eq 'pending'` } })) { // query: row-range
    out.push(j);
    if (out.length >= limit) break;
  }
  return out;
}

/** Claims a job: only one worker gets the lock (insert-if-absent). */
async function claim(jobId, worker) {
  try {
    await locks.createEntity({ partitionKey: jobId.slice(0, 8), rowKey: jobId, worker });
    return true;
  } catch (e) {
    if (e.statusCode === 409) return false;
    throw e;
  }
}

async function complete(job) {
  const done = { ...job, partitionKey: "done", status: "done" };
  await jobs.submitTransaction([["delete", { partitionKey: "pending", rowKey: job.rowKey }], ["create", done]]); // expect: ts/cross-partition-transaction
}

async function retry(jobId) {
  const job = await jobs.getEntity("failed", jobId); // query: point
  await jobs.updateEntity({ partitionKey: "failed", rowKey: jobId, attempts: (job.attempts || 0) + 1 }, "Merge", { etag: job.etag });
}

module.exports = { enqueue, pending, claim, complete, retry };
