// A node:test reporter that writes one JSON line per finished test, for tests/conftest.py to report each
// Node test case as its own pytest test: {file, name, nesting, status: "pass" | "fail" | "skip" | "todo", error?}.
// Output a test file writes to stdout or stderr becomes {output} lines, so a crash outside a test is visible.

/** Describe a failure: the assertion or error thrown in the test, with its stack */
function describeError(error) {
  const cause = error?.code === "ERR_TEST_FAILURE" && error.cause ? error.cause : error;
  const described = { message: String(cause?.message ?? cause), stack: String(cause?.stack ?? "") };
  if (cause !== null && typeof cause === "object" && "actual" in cause && "expected" in cause) {
    described.operator = cause.operator;
    try {
      described.actual = JSON.stringify(cause.actual);
      described.expected = JSON.stringify(cause.expected);
    } catch {
      described.actual = String(cause.actual);
      described.expected = String(cause.expected);
    }
  }
  return described;
}

/** Turn one reporter event into the JSON line of a finished test, or null */
function line({ type, data }) {
  if (type === "test:pass" || type === "test:fail") {
    const status = data.skip ? "skip" : data.todo ? "todo" : type === "test:pass" ? "pass" : "fail";
    const record = { file: data.file, name: data.name, nesting: data.nesting, status };
    if (status === "skip" || status === "todo") record.reason = typeof (data.skip ?? data.todo) === "string" ? data.skip ?? data.todo : "";
    if (type === "test:fail") record.error = describeError(data.details?.error);
    return record;
  }
  if (type === "test:stdout" || type === "test:stderr") return { file: data.file, output: data.message };
  return null;
}

export default async function* jsonLines(source) {
  for await (const event of source) {
    const record = line(event);
    if (record) yield `${JSON.stringify(record)}\n`;
  }
}
