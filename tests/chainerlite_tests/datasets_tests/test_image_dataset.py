import numpy
import pytest

from chainerlite import datasets
from chainerlite.datasets import image_dataset


@pytest.mark.skipif(image_dataset.available, reason='Pillow is installed')
def test_without_pillow_the_error_says_what_to_install():
    # ImportError, as Chainer's
    with pytest.raises(ImportError, match='Pillow'):
        datasets.ImageDataset(['a.png'])
    with pytest.raises(ImportError, match='Pillow'):
        datasets.LabeledImageDataset([('a.png', 0)])


@pytest.mark.skipif(image_dataset.available, reason='Pillow is installed')
def test_without_pillow_a_zip_archive_is_listed_not_read(tmp_path):
    # as Chainer: ZippedImageDataset needs Pillow only to read an image
    import zipfile

    path = str(tmp_path / 'images.zip')
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('a.png', b'')
        z.writestr('sub/', b'')
        z.writestr('sub/b.png', b'')
    zipped = datasets.ZippedImageDataset(path)
    assert len(zipped) == 2
    assert len(datasets.MultiZippedImageDataset([path, path])) == 4
    with pytest.raises(ImportError, match='Pillow'):
        zipped[0]


@pytest.mark.skipif(not image_dataset.available, reason='needs Pillow')
def test_images_and_labels_from_list_files(tmp_path):
    from PIL import Image

    rgb = numpy.random.randint(0, 256, (4, 5, 3)).astype(numpy.uint8)
    grey = numpy.random.randint(0, 256, (4, 5)).astype(numpy.uint8)
    Image.fromarray(rgb).save(str(tmp_path / 'rgb.png'))
    Image.fromarray(grey).save(str(tmp_path / 'grey.png'))
    (tmp_path / 'img.lst').write_text('rgb.png\ngrey.png\n')
    (tmp_path / 'labeled.lst').write_text('rgb.png 3\ngrey.png 1\n')
    ds = datasets.ImageDataset(str(tmp_path / 'img.lst'), root=str(tmp_path))
    numpy.testing.assert_array_equal(ds[0], rgb.transpose(2, 0, 1))
    assert ds[1].shape == (1, 4, 5) and ds[1].dtype == numpy.float32
    labeled = datasets.LabeledImageDataset(
        str(tmp_path / 'labeled.lst'), root=str(tmp_path), dtype=numpy.int32
    )
    image, label = labeled[0]
    assert image.dtype == numpy.int32 and label == 3
    with pytest.raises(ValueError, match='columns'):
        datasets.LabeledImageDataset(str(tmp_path / 'img.lst'))


@pytest.mark.skipif(not image_dataset.available, reason='needs Pillow')
def test_blank_lines_of_list_files_are_lines_as_in_chainer(tmp_path):
    # Chainer keeps a blank line of an image list as an empty path (the
    # root folder, unreadable as an image) and refuses it in a list of
    # pairs; chainerlite skipped it, so the datasets' lengths differed
    from PIL import Image

    Image.new('RGB', (3, 2)).save(str(tmp_path / 'a.png'))
    (tmp_path / 'img.lst').write_text('a.png\n\n  a.png  \n')
    (tmp_path / 'labeled.lst').write_text('a.png 1\n\n')
    ds = datasets.ImageDataset(str(tmp_path / 'img.lst'), root=str(tmp_path))
    assert len(ds) == 3 and ds[2].shape == (3, 2, 3)
    with pytest.raises(OSError):
        ds[1]
    with pytest.raises(ValueError, match='line 2 .* 0 columns'):
        datasets.LabeledImageDataset(str(tmp_path / 'labeled.lst'), root=str(tmp_path))


@pytest.mark.skipif(not image_dataset.available, reason='needs Pillow')
def test_zipped_images(tmp_path):
    import io
    import pickle
    import zipfile

    from PIL import Image

    images = [numpy.full((2, 3, 3), i, numpy.uint8) for i in range(3)]
    for k, part in enumerate((images[:2], images[2:])):
        with zipfile.ZipFile(str(tmp_path / ('%d.zip' % k)), 'w') as zf:
            for i, image in enumerate(part):
                buf = io.BytesIO()
                Image.fromarray(image).save(buf, format='PNG')
                zf.writestr('img%d.png' % i, buf.getvalue())
    (tmp_path / 'labels.lst').write_text('img1.png 7\n')
    one = datasets.ZippedImageDataset(str(tmp_path / '0.zip'))
    assert len(one) == 2 and one[1].shape == (3, 2, 3)
    # by its name in the archive too, as Chainer's get_example(i_or_filename)
    numpy.testing.assert_array_equal(one.get_example('img1.png'), one[1])
    with pytest.raises(KeyError):
        one.get_example('absent.png')
    multi = datasets.MultiZippedImageDataset(
        [str(tmp_path / '0.zip'), str(tmp_path / '1.zip')], numpy.int32
    )
    multi = pickle.loads(pickle.dumps(multi))
    assert [int(m[0, 0, 0]) for m in multi] == [0, 1, 2]
    labeled = datasets.LabeledZippedImageDataset(
        str(tmp_path / '0.zip'), str(tmp_path / 'labels.lst')
    )
    image, label = labeled[0]
    assert image[0, 0, 0] == 1 and label == 7
