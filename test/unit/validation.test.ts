// The JSON body vocabulary (src/validation/validation.ts): each primitive lets its values through untouched,
// and for anything else throws exactly what the surface's factory makes, with the path and the
// rule broken; ruleText words every rule.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertArray,
  assertBoolean,
  assertEnum,
  assertInteger,
  assertObject,
  assertString,
  assertStringMap,
  isJsonObject,
  ruleText,
} from '../../src/validation/validation.ts';
import type { Fail, Rule } from '../../src/validation/validation.ts';

/** A surface's own error type, as each surface has one. */
class SurfaceError extends Error {
  readonly path: string;
  readonly rule: Rule;
  constructor(path: string, rule: Rule) {
    super(`${path} ${ruleText(rule)}`);
    this.path = path;
    this.rule = rule;
  }
}

const fail: Fail = (path, rule) => new SurfaceError(path, rule);

function refused(run: () => void): SurfaceError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SurfaceError, 'the factory made the error');
    return error;
  }
  assert.fail('the value was accepted');
}

const NOT_OBJECTS = [null, [], 'x', 1, true, undefined];

describe('validation primitives', () => {
  it('assertObject: plain objects pass; null, arrays and scalars fail at the path', () => {
    for (const value of [{}, { a: 1 }, Object.create(null)]) assertObject(value, 'body', fail);
    for (const value of NOT_OBJECTS) {
      const error = refused(() => assertObject(value, 'body.x', fail));
      assert.deepEqual([error.path, error.rule], ['body.x', { type: 'object' }]);
      assert.equal(error.message, 'body.x must be a JSON object');
    }
    assert.equal(isJsonObject({}), true);
    assert.equal(isJsonObject([]), false);
    assert.equal(isJsonObject(null), false);
  });

  it('assertArray', () => {
    for (const value of [[], [1, 'a']]) assertArray(value, 'items', fail);
    for (const value of [{}, null, 'a', { length: 0 }]) {
      assert.equal(refused(() => assertArray(value, 'items', fail)).message, 'items must be an array');
    }
  });

  it('assertString: strings pass, the empty one too; nothing is coerced', () => {
    for (const value of ['', 'a']) assertString(value, 's', fail);
    for (const value of [1, null, undefined, ['a'], { toString: () => 'a' }]) {
      assert.equal(refused(() => assertString(value, 'attendees[0].email', fail)).message, 'attendees[0].email must be a string');
    }
  });

  it('assertBoolean: true and false only', () => {
    assertBoolean(true, 'b', fail);
    assertBoolean(false, 'b', fail);
    for (const value of ['true', 0, 1, null]) assert.equal(refused(() => assertBoolean(value, 'b', fail)).message, 'b must be true or false');
  });

  it('assertEnum: exact members only (case-sensitive), the allowed list in the rule', () => {
    const allowed = ['email', 'popup'] as const;
    for (const value of allowed) assertEnum(value, allowed, 'method', fail);
    for (const value of ['Email', '', 'sms', 1, null]) {
      const error = refused(() => assertEnum(value, allowed, 'method', fail));
      assert.deepEqual(error.rule, { type: 'enum', allowed });
      assert.equal(error.message, 'method must be "email" or "popup"');
    }
    assert.equal(refused(() => assertEnum('sms', ['email'], 'method', fail)).message, 'method must be "email"');
    assert.equal(refused(() => assertEnum('x', ['a', 'b', 'c'], 'type', fail)).message, 'type must be one of a, b, c');
  });

  it('assertInteger: integers within the bounds, both ends included', () => {
    const range = { min: 0, max: 40320 };
    for (const value of [0, 1, 40320, 5.0]) assertInteger(value, range, 'minutes', fail);
    for (const value of [-1, 40321, 1.5, '10', NaN, Infinity, null]) {
      const error = refused(() => assertInteger(value, range, 'minutes', fail));
      assert.deepEqual(error.rule, { type: 'integer', min: 0, max: 40320 });
      assert.equal(error.message, 'minutes must be an integer from 0 to 40320');
    }
    assertInteger(2 ** 60, { min: 0, max: Number.POSITIVE_INFINITY }, 'sequence', fail);
  });

  it('assertStringMap: an object of strings; a member that is not fails at its own path', () => {
    assertStringMap({}, 'private', fail);
    assertStringMap({ a: 'x', 'b c': '' }, 'private', fail);
    assert.deepEqual(refused(() => assertStringMap(['a'], 'private', fail)).rule, { type: 'object' });
    const error = refused(() => assertStringMap({ a: 'x', b: 2 }, 'extendedProperties.private', fail));
    assert.deepEqual([error.path, error.rule], ['extendedProperties.private.b', { type: 'string' }]);
  });

  it('ruleText: one wording per rule, a surface\'s own wording first', () => {
    assert.equal(ruleText({ type: 'object' }), 'must be a JSON object');
    assert.equal(ruleText({ type: 'object' }, { object: 'must be an object' }), 'must be an object');
    assert.equal(ruleText({ type: 'string' }, { object: 'must be an object' }), 'must be a string');
  });

  it('the factory decides the error: the primitive throws what it returns', () => {
    class Other extends Error {}
    const other: Fail = (path) => new Other(`Invalid value for ${path}.`);
    assert.throws(() => assertString(1, 'summary', other), (error: unknown) => error instanceof Other && error.message === 'Invalid value for summary.');
  });
});
