-- Game reviews (docs/review.md): the engine's analysis of a finished game,
-- kept so that a second request is answered at once. summary is the
-- review as JSON (engine/review.Review), annotated the annotated record.
CREATE TABLE game_reviews (
	game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	summary    TEXT NOT NULL,
	annotated  TEXT NOT NULL,
	created_at INTEGER NOT NULL
);
