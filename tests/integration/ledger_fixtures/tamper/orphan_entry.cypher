// An intruder creates an entry around the gate, in no set.
CREATE (e:Entry:Fact:Live:Resident {id: $entry_id, boundary_id: $boundary_id, class: 'fact',
                                    key: 'forged', body: 'forged fact', status: 'live',
                                    resident: true})
RETURN e.id AS id
