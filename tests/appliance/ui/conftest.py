"""Real pygame, no window: SDL's dummy video and audio drivers."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

SIZES = [(800, 480), (1280, 720), (1920, 1080)]


@pytest.fixture(scope="session", autouse=True)
def _pygame_ready():
    pygame.display.init()
    pygame.font.init()
    yield


@pytest.fixture
def frame(tmp_path):
    """frame(view, size) draws view, saves it as PNG, reads it back: tests look at the file."""
    from appliance.ui.table_screen import draw_table

    def render(view, size, name="frame"):
        surface = pygame.Surface(size)
        draw_table(surface, view)
        path = tmp_path / f"{name}-{size[0]}x{size[1]}.png"
        pygame.image.save(surface, str(path))
        assert path.stat().st_size > 0
        return pygame.image.load(str(path))

    return render
