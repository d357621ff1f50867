/**
 * Cuts streamed text into lines. A chunk may end in the middle of a line (or between `\r` and
 * `\n`); only that unfinished line is held until the next chunk.
 */
export interface LineSplitter {
  push(chunk: string): void;
  /** Flushes the last line when the input does not end with a newline. */
  end(): void;
}

export function createLineSplitter(onLine: (text: string, lineNumber: number) => void): LineSplitter {
  let partial = '';
  let lineNumber = 0;

  const emit = (text: string): void => {
    lineNumber += 1;
    onLine(text.endsWith('\r') ? text.slice(0, -1) : text, lineNumber);
  };

  return {
    push(chunk) {
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        partial += chunk;
        return;
      }
      emit(partial + chunk.slice(0, newline));
      partial = '';
      let start = newline + 1;
      newline = chunk.indexOf('\n', start);
      while (newline !== -1) {
        emit(chunk.slice(start, newline));
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      partial = chunk.slice(start);
    },
    end() {
      if (partial.length > 0) emit(partial);
      partial = '';
    },
  };
}
