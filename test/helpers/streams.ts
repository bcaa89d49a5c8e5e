/** A writable stand-in for stdout/stderr that records what was written. */
export function memoryStream(isTTY = false, columns = 100) {
  const chunks: string[] = [];
  return {
    isTTY,
    columns,
    write(chunk: string) {
      chunks.push(chunk);
      return true;
    },
    text: () => chunks.join(''),
  };
}
