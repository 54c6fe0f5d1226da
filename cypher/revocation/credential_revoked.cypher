// Whether an operator of boundary $boundary_id revoked the credential whose sha256 is $digest.
RETURN EXISTS {
  MATCH (r:RevocationReceipt)
  WHERE r.boundary_id = $boundary_id AND r.subject_kind = 'credential' AND r.subject_id = $digest
} AS revoked
