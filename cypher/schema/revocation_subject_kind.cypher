// Range index: revocation receipts by the kind of what they name (the revocation audits).
CREATE INDEX revocation_subject_kind IF NOT EXISTS FOR (n:RevocationReceipt) ON (n.subject_kind)
