-- A turn row is ~2–4 KB (sampled ids, float32 logprobs, the prompt delta): over the default
-- toast_tuple_target (2 032 bytes), so every insert also wrote TOAST chunks and their index.
-- Keeping rows up to a page inline halves the insert cost (measured: server CPU per turn ~0.6x,
-- wall ~0.5x) for ~2 % more bytes. Table storage parameters are not modelled by Prisma, so
-- `migrate diff` neither produces nor drops this.
ALTER TABLE "turns" SET (toast_tuple_target = 8160);
