-- Game reviews (PostgreSQL dialect of migrations/0012).
CREATE TABLE game_reviews (
	game_id    BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	summary    TEXT NOT NULL,
	annotated  TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
