// The least an artifact download can do on node:http: GET the URL and stream the body to a file
// (bench/download.ts times it beside curl and simjob). Usage: node download.cjs <url> <file>
'use strict';
const { get } = require('node:http');
const { createWriteStream } = require('node:fs');
const { pipeline } = require('node:stream/promises');

get(process.argv[2], (res) => {
  pipeline(res, createWriteStream(process.argv[3])).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
}).on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
