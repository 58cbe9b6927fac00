-- An order submission's statements, as Django sends them (bench/api_floor.py, pgbench).
-- The seat is drawn from the bench's games (-D first=... -D last=...); its token, game,
-- phase and power come from the first read, as the request's own reads give them.
\set seat random(:first, :last)
SELECT m.id, m.game_id, m.power, m.status, m.missed_phases, m.ready, m.bot, m.removed, g.status AS game_status, g.variant, g.options, g.current_phase_id AS phase, p.index, p.season, p.year, p.type, p.deadline, p.units, p.supply_centers, p.dislodged, p.contested, p.carried, p.processed_at, u.password, u.last_login, u.is_superuser, u.username, u.is_active, t.key FROM games_membership m INNER JOIN games_game g ON m.game_id = g.id INNER JOIN auth_user u ON m.user_id = u.id INNER JOIN authtoken_token t ON u.id = t.user_id LEFT OUTER JOIN games_phase p ON g.current_phase_id = p.id WHERE NOT (m.status = 'replaced') AND NOT m.removed AND m.id = :seat ORDER BY m.id \gset
BEGIN;
SELECT status, current_phase_id FROM games_game WHERE id = :game_id FOR UPDATE;
SELECT status, missed_phases, removed, power FROM games_membership WHERE id = :seat;
DELETE FROM games_order WHERE phase_id = :phase AND membership_id = :seat;
INSERT INTO games_order (phase_id, power, membership_id, text, canonical, location, valid, data, reason, reason_words, result, result_reason, result_reason_words, needs, needs_words, stopped_at, position) VALUES (:phase, 'Austria', :seat, 'A Vienna - Galicia', 'A Vienna - Galicia', 'Vienna', true, '{"kind": "move", "order": "A Vienna - Galicia", "unit": "A", "location": "Vienna", "destination": "Galicia"}', '', NULL, '', '', NULL, '', NULL, '', 0), (:phase, 'Austria', :seat, 'A Budapest - Serbia', 'A Budapest - Serbia', 'Budapest', true, '{"kind": "move", "order": "A Budapest - Serbia", "unit": "A", "location": "Budapest", "destination": "Serbia"}', '', NULL, '', '', NULL, '', NULL, '', 1), (:phase, 'Austria', :seat, 'F Trieste - Albania', 'F Trieste - Albania', 'Trieste', true, '{"kind": "move", "order": "F Trieste - Albania", "unit": "F", "location": "Trieste", "destination": "Albania"}', '', NULL, '', '', NULL, '', NULL, '', 2) RETURNING id;
COMMIT;
