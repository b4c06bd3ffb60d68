// Stops `npm start` (and anything else that runs it first) on a Node.js too old for this site, with
// one sentence instead of a crash deep inside a native module. Written in the oldest syntax (var,
// function, no modules, no dependencies) so that any Node.js can parse it and say what is wrong.
// The version needed is package.json's "engines.node"; `npm install` refuses early through
// `engine-strict` in .npmrc, which reads the same field.
'use strict';

var fs = require('fs');
var path = require('path');

/** "22.22.2" → [22, 22, 2]; missing parts count as 0. */
function parseVersion(text) {
  var parts = String(text).replace(/^v/, '').split('.');
  return [0, 1, 2].map(function (i) {
    var n = parseInt(parts[i], 10);
    return isNaN(n) ? 0 : n;
  });
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** Whether `version` satisfies one comparator: ">=X.Y.Z", "^X.Y.Z" or an exact "X.Y.Z". */
function satisfiesOne(version, comparator) {
  var c = comparator.trim();
  if (c.indexOf('>=') === 0) return compare(version, parseVersion(c.slice(2))) >= 0;
  if (c.charAt(0) === '^') {
    var base = parseVersion(c.slice(1));
    return version[0] === base[0] && compare(version, base) >= 0;
  }
  return compare(version, parseVersion(c)) === 0;
}

/** Whether `found` satisfies `range` ("^22.22.2 || >=24.15.0": alternatives of single comparators). */
function satisfies(found, range) {
  var version = parseVersion(found);
  return String(range)
    .split('||')
    .some(function (alternative) {
      return satisfiesOne(version, alternative);
    });
}

/** "^22.22.2 || >=24.15.0" → "22.22.2 (or a later 22.x) or 24.15.0 or newer". */
function describeRange(range) {
  return String(range)
    .split('||')
    .map(function (alternative) {
      var c = alternative.trim();
      if (c.indexOf('>=') === 0) return c.slice(2).trim() + ' or newer';
      if (c.charAt(0) === '^') return c.slice(1) + ' (or a later ' + parseVersion(c.slice(1))[0] + '.x)';
      return c;
    })
    .join(' or ');
}

/** The sentence to print when `found` does not satisfy `range`; null when it does. */
function nodeVersionProblem(found, range) {
  if (satisfies(found, range)) return null;
  return (
    'This site needs Node.js ' +
    describeRange(range) +
    ', but this machine runs Node.js ' +
    String(found).replace(/^v/, '') +
    ': install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`) and run the command again.'
  );
}

function requiredRange() {
  var pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  return pkg.engines.node;
}

/** Prints the sentence and exits with status 1 when this Node.js is too old; returns otherwise. */
function exitIfUnsupported() {
  var problem = nodeVersionProblem(process.versions.node, requiredRange());
  if (problem) {
    process.stderr.write(problem + '\n');
    process.exit(1);
  }
}

module.exports.nodeVersionProblem = nodeVersionProblem;
module.exports.requiredRange = requiredRange;
module.exports.exitIfUnsupported = exitIfUnsupported;

if (require.main === module) exitIfUnsupported();
