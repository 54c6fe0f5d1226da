// A second user database for the tests (system database; Enterprise or Aura; kept, like the
// test data, and reused by the next run).
CREATE DATABASE $name IF NOT EXISTS WAIT
