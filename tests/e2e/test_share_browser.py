"""Sharing in a real browser: the short link in a fresh context, and the PNG download."""

import struct

import pytest

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("slug", ["nephilim", "encore"])
def test_share_a_result_open_it_elsewhere_and_download_the_png(browser, live_server, bestiary, tmp_path, shot, slug):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/{slug}/")
    page.click("button:has-text('Résoudre')")
    page.wait_for_selector("#story")
    story = page.inner_text("#story")
    page.click("button:has-text('Partager')")
    page.wait_for_url("**/r/*")
    short = page.url
    context.close()

    fresh = browser.new_context(viewport=DESKTOP, accept_downloads=True, device_scale_factor=1)
    page = fresh.new_page()
    page.goto(short)
    assert " ".join(page.inner_text("#capture .frame-story").split()[2:]) in " ".join(story.split())
    with page.expect_download() as info:
        page.click("#download-png")
    path = tmp_path / "capture.png"
    info.value.save_as(path)
    width, height = png_size(path)
    assert width == 720
    assert height > 300
    shot(page, f"share-{slug}-desktop")
    capture = fresh.new_page()
    capture.goto(f"{short}/capture")
    assert capture.locator(".frame").count() == 4
    fresh.close()


def test_a_shared_result_reads_on_a_phone_and_its_png_keeps_its_width(browser, live_server, bestiary, tmp_path, shot):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        accept_downloads=True,
        device_scale_factor=1,
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/nephilim/")
    page.click("#resolve-button")
    page.wait_for_selector("#story")
    page.click("button:has-text('Partager')")
    page.wait_for_url("**/r/*")
    # the whole capture, its values column included, is inside the screen: nothing sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    rights = page.eval_on_selector_all(
        "#capture .tech-table td.value", "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert rights
    assert max(rights) <= 390
    shot(page, "share-nephilim-phone")
    with page.expect_download() as info:
        page.click("#download-png")
    path = tmp_path / "capture.png"
    info.value.save_as(path)
    assert png_size(path)[0] == 720
    context.close()
