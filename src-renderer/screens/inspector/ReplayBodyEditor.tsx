// The replay's body editor: a monospace multi-line textarea that grows with its text
// (Tab still moves focus: no keyboard trap), a "Format JSON" button (two-space indent), and the parse error said under it while the
// text is not valid JSON (only when the captured body was JSON: other bodies are text).
import { useRef } from 'react';
import { Field } from '../../components/Field.js';

/** The parse error of a JSON text, or '' when it parses. */
export function jsonProblem(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (err) {
    return `Not valid JSON: ${(err as Error).message}`;
  }
}

export function ReplayBodyEditor({
  value,
  onChange,
  json,
  serverError,
}: {
  value: string;
  onChange: (text: string) => void;
  /** Was the captured body JSON? Then the editor formats and checks it. */
  json: boolean;
  serverError?: string;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const problem = json ? jsonProblem(value) : '';
  const format = () => {
    if (!problem) onChange(JSON.stringify(JSON.parse(value), null, 2));
    area.current?.focus();
  };
  const lines = Math.min(24, Math.max(8, value.split('\n').length + 1));
  return (
    <div className="replay-body">
      <Field label="Body" error={problem || serverError}>
        <textarea
          ref={area}
          className="code-input code-editor"
          rows={lines}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          wrap="off"
        />
      </Field>
      {json && (
        <button type="button" className="btn btn-small" onClick={format} disabled={problem !== ''}>
          Format JSON
        </button>
      )}
    </div>
  );
}
