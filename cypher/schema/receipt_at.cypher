// Range index: Receipt.at (queries filter on it).
CREATE INDEX receipt_at IF NOT EXISTS FOR (n:Receipt) ON (n.at)
