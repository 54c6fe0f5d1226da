// Range index: receipts by kind (adoption receipts cited by proposals, audits by kind).
CREATE INDEX receipt_kind IF NOT EXISTS FOR (n:Receipt) ON (n.kind)
