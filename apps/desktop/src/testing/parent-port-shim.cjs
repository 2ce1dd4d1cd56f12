// Preloaded (node --require) into a Node child process made by child_process.fork, it gives the child the
// `process.parentPort` an Electron utility process has, over fork's IPC channel: the tests run the real
// server-process entry without an Electron binary.
if (process.send && !process.parentPort) {
  process.parentPort = {
    on(event, listener) {
      if (event === 'message') process.on('message', (data) => listener({ data, ports: [] }));
      return this;
    },
    postMessage(message) {
      process.send(message);
    },
  };
}
