// Range index: revocation receipts by what they name (the gate's check of a batch's writers and
// cited adoption receipts, a credential's check, an earlier revocation of the same subject).
CREATE INDEX revocation_subject_id IF NOT EXISTS FOR (n:RevocationReceipt) ON (n.subject_id)
