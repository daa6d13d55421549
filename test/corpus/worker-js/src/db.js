const { TableClient } = require("@azure/data-tables");

const conn = process.env.JOBS_STORAGE || "UseDevelopmentStorage=true";
const jobs = TableClient.fromConnectionString(conn, "jobs");
const locks = TableClient.fromConnectionString(conn, "locks");

module.exports = { jobs, locks };
